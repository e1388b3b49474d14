// Which of the proxy's code actions a command means. The proxy's executeCommand names are unique
// per process (two workspace folders run two proxies), so the extension never hard-codes them:
// it asks VS Code for the code actions at the cursor (which the Lean 4 extension's language client
// fetches from the proxy) and runs the one whose title matches. The titles are the proxy's
// contract ("Show differences", "Show proof path", "Use as reference").

export type AssessAction = 'differences' | 'proofPath' | 'useAsReference'

/** Title fragment of each proxy action, compared case-insensitively. */
export const ACTION_TITLES: Record<AssessAction, string> = {
    differences: 'show differences',
    proofPath: 'show proof path',
    useAsReference: 'use as reference',
}

/** The minimal shape of a VS Code CodeAction / Command that the choice depends on. */
export interface ActionLike {
    title: string
}

/**
 * The first action whose title contains the fragment for `wanted`. Titles may carry a prefix
 * (e.g. "lean-assess: Show differences"), hence containment rather than equality.
 */
export function pickAction<T extends ActionLike>(actions: readonly T[] | undefined, wanted: AssessAction): T | undefined {
    const fragment = ACTION_TITLES[wanted]
    return (actions ?? []).find(a => typeof a.title === 'string' && a.title.toLowerCase().includes(fragment))
}

/** What running an action means: apply its edit (if any), then run its command (if any). */
export interface ActionSteps {
    edit?: unknown
    command?: { command: string; arguments: unknown[] }
}

/**
 * The steps for a VS Code `CodeAction` (edit and/or `command: Command`) or a bare `Command`
 * (`command: string`), in the order VS Code itself uses when a user picks a code action: the
 * edit first, then the command.
 */
export function actionSteps(action: ActionLike & { edit?: unknown; command?: unknown; arguments?: unknown[] }): ActionSteps {
    const steps: ActionSteps = {}
    if (action.edit !== undefined && action.edit !== null) steps.edit = action.edit
    const c = action.command
    if (typeof c === 'string') {
        steps.command = { command: c, arguments: Array.isArray(action.arguments) ? action.arguments : [] }
    } else if (typeof c === 'object' && c !== null && typeof (c as { command?: unknown }).command === 'string') {
        const cmd = c as { command: string; arguments?: unknown[] }
        steps.command = { command: cmd.command, arguments: Array.isArray(cmd.arguments) ? cmd.arguments : [] }
    }
    return steps
}
