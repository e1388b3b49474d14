// The lean-assess VS Code extension. It works beside the official Lean 4 extension and adds no
// language client of its own: the Lean 4 extension spawns `lake serve`, and this extension makes
// that `lake` the lean-assess shim (through `lean4.envPathExtensions`, only after asking), so the
// lenses, hovers and code actions the proxy adds reach VS Code through the Lean 4 extension's
// client. It also turns `leanAssess.*` settings into the user's config layer (LEAN_ASSESS_CONFIG),
// which the proxy layers over the project's own `lean-assess.toml` (never replacing it; `Show
// Configuration` prints each key with the file it came from), and offers commands that run the
// proxy's code actions at the cursor. `leanAssess.llm.*` is read from user settings only: a
// workspace's `.vscode/settings.json` never names an endpoint or a key variable.
//
// Facts relied on (editors-and-peers-research.md §A; vscode-lean4 0.0.239 as run in code-server,
// ../shared/clients/README.md): the Lean 4 extension copies `process.env` when it starts a server
// (`Object.assign({}, process.env)` in its leanclient setup), puts `lean4.envPathExtensions` in
// front of PATH, and restarts with the command `lean4.restartServer` (palette: "Lean 4: Server:
// Restart Server"), which restarts the server of the last focused Lean editor while that editor
// is still visible. It is our dependency, so it activates first and, on a window reload, starts
// the server of a restored Lean editor before this extension has set LEAN_ASSESS_CONFIG: the
// settings layer is therefore also kept beside the shim (SETTINGS_FILE), where the shim finds
// it without the variable, and a running proxy re-reads it when it changes.
import * as vscode from 'vscode'
import * as fs from 'fs'
import * as path from 'path'
import { findExecutable, shimIsFirst, withShimFirst, withoutShim } from './core/pathing'
import { installShim, shimState } from './core/shim'
import { hasProxySettings, readSettings, renderConfig, SettingError } from './core/config'
import { ACTION_TITLES, actionSteps, AssessAction, pickAction } from './core/actions'
import { execFile } from 'child_process'

/** The language ids the Lean 4 extension serves (`lean4`, and `lean` for older files). */
export const LEAN_LANGUAGE_IDS = ['lean4', 'lean']

export const CONFIG_ENV = 'LEAN_ASSESS_CONFIG'
export const LEAN_RESTART_COMMAND = 'lean4.restartServer'
/** The palette title of LEAN_RESTART_COMMAND in vscode-lean4 (category "Lean 4: Server"). */
export const LEAN_RESTART_TITLE = 'Lean 4: Server: Restart Server'
/** The settings layer's file name in the shim directory (the shim reads it: src/cli/shim.rs). */
export const SETTINGS_FILE = 'lean-assess-settings.toml'
const NEVER_ASK_KEY = 'leanAssess.neverAskShim'

/** The command ids this extension registers; package.json `contributes.commands` lists the same. */
export const COMMANDS = {
    showDifferences: 'leanAssess.showDifferences',
    showProofPath: 'leanAssess.showProofPath',
    setReference: 'leanAssess.setReference',
    installShim: 'leanAssess.installShim',
    removeShim: 'leanAssess.removeShim',
    showConfig: 'leanAssess.showConfig',
    restartLean: 'leanAssess.restartLean',
} as const

let log: vscode.OutputChannel | undefined
/** "lean-assess inactive" in the status bar while the shim is not in front of Lean. */
let status: vscode.StatusBarItem | undefined
/**
 * Offers to set up the shim still open (VS Code moves an unanswered toast into the bell after a
 * few seconds, where it stays open), and whether the last one closed without an answer: either
 * way the offer is made again on the next Lean file opened.
 */
let offersOpen = 0
let offerUnanswered = false

function say(line: string): void {
    log?.appendLine(`[${new Date().toISOString()}] ${line}`)
}

/**
 * A setting from the user's own settings only (never a workspace's or folder's): the binary the
 * extension runs and where its shim goes must not be chosen by a cloned repository.
 */
function userSetting(key: string): string {
    const v = vscode.workspace.getConfiguration('leanAssess').inspect<string>(key)?.globalValue
    return typeof v === 'string' ? v.trim() : ''
}

/** `leanAssess.path` (user settings) if set, else `lean-assess` on the extension host's PATH. */
export function resolveBinary(): string | undefined {
    const configured = userSetting('path')
    return findExecutable(configured !== '' ? configured : 'lean-assess', process.env.PATH, process.platform)
}

/** `leanAssess.shimDirectory` (user settings) if set, else `shim/` under the global storage. */
export function shimDirectory(context: vscode.ExtensionContext): string {
    const configured = userSetting('shimDirectory')
    return configured !== '' ? configured : path.join(context.globalStorageUri.fsPath, 'shim')
}

function workspaceRoot(): string | undefined {
    return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath
}

/** Where the settings layer is written: beside the shim, where the shim finds it (SETTINGS_FILE). */
export function settingsFile(context: vscode.ExtensionContext): string {
    return path.join(shimDirectory(context), SETTINGS_FILE)
}

/**
 * Write the proxy's config from the settings and point LEAN_ASSESS_CONFIG at it (or remove it and
 * unset the variable when no setting is set). Returns true when what a proxy sees changed.
 */
export function syncProxyConfig(context: vscode.ExtensionContext): boolean {
    const cfg = vscode.workspace.getConfiguration('leanAssess')
    // The LLM's endpoint and key variable come from the user only (user settings), never from a
    // workspace's settings file.
    const settings = readSettings(key => (key.startsWith('llm.') ? cfg.inspect(key)?.globalValue : cfg.get(key)))
    const before = process.env[CONFIG_ENV]
    const file = settingsFile(context)
    if (!hasProxySettings(settings)) {
        delete process.env[CONFIG_ENV]
        let removed = false
        try {
            fs.unlinkSync(file)
            removed = true
            say(`removed ${file} (no leanAssess settings)`)
        } catch {
            // Not there: nothing to remove.
        }
        return before !== undefined || removed
    }
    let text: string
    try {
        text = renderConfig(settings, workspaceRoot())
    } catch (e) {
        const msg = e instanceof SettingError ? e.message : String(e)
        say(msg)
        void vscode.window.showErrorMessage(`lean-assess: ${msg}`)
        return false
    }
    let old: string | undefined
    try {
        old = fs.readFileSync(file, 'utf8')
    } catch {
        old = undefined
    }
    if (old !== text) {
        fs.mkdirSync(path.dirname(file), { recursive: true })
        fs.writeFileSync(file, text)
        say(`wrote ${file}`)
    }
    process.env[CONFIG_ENV] = file
    return before !== file || old !== text
}

function isLeanDocument(doc: vscode.TextDocument): boolean {
    return LEAN_LANGUAGE_IDS.includes(doc.languageId)
}

function inFolder(doc: vscode.TextDocument, folder: string | undefined): boolean {
    if (folder === undefined) return true
    const rel = path.relative(folder, doc.uri.fsPath)
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)
}

/**
 * Restart the Lean server of every workspace folder, and say what really happened.
 * `lean4.restartServer` restarts only the client of the last focused Lean editor, and only while
 * that editor is visible (else it shows "No focused Lean tab" and returns normally), so for each
 * folder a Lean editor of that folder is focused first: a visible one in its own group (focus
 * goes back to the editor the user had afterwards), else an open Lean document is shown — and
 * stays: switching back would hide it and dispose the editor the Lean 4 extension is restarting
 * (it then logs "Illegal argument: TextEditor(…)"). A folder with no Lean file open has no server
 * to restart (its next one starts behind the proxy). Returns one line per folder.
 */
export async function restartLean(): Promise<string[]> {
    const folders = (vscode.workspace.workspaceFolders ?? []).map(f => f.uri.fsPath)
    const targets: (string | undefined)[] = folders.length > 0 ? folders : [undefined]
    const before = vscode.window.activeTextEditor
    const report: string[] = []
    const notDone: string[] = []
    let shownHidden = false
    for (const folder of targets) {
        const name = folder ?? 'this window'
        const visible = vscode.window.visibleTextEditors.find(e => isLeanDocument(e.document) && inFolder(e.document, folder))
        const doc = visible?.document ?? vscode.workspace.textDocuments.find(d => isLeanDocument(d) && inFolder(d, folder))
        if (doc === undefined) {
            report.push(`${name}: no Lean file open, so no Lean server runs there; the next one opened starts behind the proxy`)
            continue
        }
        try {
            await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: false, viewColumn: visible?.viewColumn })
            if (visible === undefined) shownHidden = true
        } catch (e) {
            notDone.push(name)
            report.push(`${name}: could not bring ${doc.uri.fsPath} forward (${String(e)}): open it and run "${LEAN_RESTART_TITLE}"`)
            continue
        }
        if (vscode.window.activeTextEditor?.document !== doc) {
            notDone.push(name)
            report.push(`${name}: ${doc.uri.fsPath} did not become the focused editor: focus it and run "${LEAN_RESTART_TITLE}"`)
            continue
        }
        try {
            await vscode.commands.executeCommand(LEAN_RESTART_COMMAND)
            report.push(`${name}: asked the Lean 4 extension to restart the server of ${doc.uri.fsPath}`)
        } catch (e) {
            // The Lean 4 extension is not installed or not active yet: its next start picks up the change.
            notDone.push(name)
            report.push(`${name}: could not run ${LEAN_RESTART_COMMAND}: ${String(e)}`)
        }
    }
    // Back to the editor the user had, when that hides no editor being restarted.
    if (!shownHidden && before !== undefined && vscode.window.activeTextEditor?.document !== before.document) {
        await Promise.resolve(vscode.window.showTextDocument(before.document, { preview: false, viewColumn: before.viewColumn })).catch(() => undefined)
    }
    for (const line of report) say(`restart: ${line}`)
    if (notDone.length > 0) {
        void vscode.window.showWarningMessage(`lean-assess: the Lean server was not restarted in ${notDone.join(', ')}. ${report.filter(l => notDone.some(n => l.startsWith(n))).join(' ')}`)
    }
    return report
}

/** `Show Configuration`: what the proxy reads for the active Lean file, each key with its origin. */
async function showConfig(): Promise<string | undefined> {
    const binary = resolveBinary()
    const doc = vscode.window.activeTextEditor?.document
    if (binary === undefined || doc === undefined) {
        void vscode.window.showInformationMessage('lean-assess: open a Lean file (and have lean-assess on PATH or in leanAssess.path) to see its configuration.')
        return undefined
    }
    const folder = (vscode.workspace.workspaceFolders ?? []).map(f => f.uri.fsPath).find(f => inFolder(doc, f))
    const text = await new Promise<string>(resolve => {
        execFile(binary, ['serve', '--show-config', doc.uri.fsPath], { cwd: folder, env: process.env, timeout: 15000 }, (err, stdout, stderr) => {
            resolve(`${stdout}${stderr}${err && !stdout ? String(err) : ''}`)
        })
    })
    for (const line of text.trimEnd().split('\n')) say(line)
    log?.show(true)
    return text
}

/**
 * Make sure the shim exists and is first in `lean4.envPathExtensions`. Changes the setting only
 * after the user agrees; `explicit` (the "install shim" command) asks even after "Never ask".
 */
export async function ensureShim(context: vscode.ExtensionContext, explicit: boolean): Promise<'ready' | 'restarted' | 'declined' | 'failed'> {
    const outcome = await ensureShimSteps(context, explicit)
    showStatus(outcome === 'ready' || outcome === 'restarted' ? 'active' : resolveBinary() === undefined ? 'no-binary' : 'inactive')
    return outcome
}

/** The status bar: hidden while the proxy is in front of Lean, else "lean-assess inactive" (click: set up). */
function showStatus(state: 'active' | 'inactive' | 'no-binary'): void {
    if (status === undefined) return
    if (state === 'active') {
        status.hide()
        return
    }
    status.text = state === 'no-binary' ? '$(warning) lean-assess: no binary' : '$(circle-slash) lean-assess: inactive'
    status.tooltip =
        state === 'no-binary'
            ? 'lean-assess: the lean-assess binary was not found (leanAssess.path, then PATH). Click to set up.'
            : 'lean-assess is not in front of the Lean server (its shim is not first in lean4.envPathExtensions): no lenses, hovers or code actions. Click to set up.'
    status.command = COMMANDS.installShim
    status.show()
}

async function ensureShimSteps(context: vscode.ExtensionContext, explicit: boolean): Promise<'ready' | 'restarted' | 'declined' | 'failed'> {
    const binary = resolveBinary()
    if (binary === undefined) {
        const choice = await vscode.window.showWarningMessage(
            'lean-assess: the `lean-assess` binary was not found (setting leanAssess.path, then PATH). Lenses and hovers need it.',
            'Open Settings',
        )
        if (choice === 'Open Settings') await vscode.commands.executeCommand('workbench.action.openSettings', 'leanAssess.path')
        return 'failed'
    }
    const dir = shimDirectory(context)
    if (shimState(dir, binary, process.platform).kind !== 'installed') {
        try {
            fs.mkdirSync(dir, { recursive: true })
            const out = await installShim(binary, dir, process.platform)
            say(`installed the lake shim in ${dir}: ${out.stdout.trim()}`)
        } catch (e) {
            const msg = e instanceof Error ? e.message : String(e)
            say(msg)
            void vscode.window.showErrorMessage(`lean-assess: ${msg}`)
            return 'failed'
        }
    }
    if (shimIsFirst(vscode.workspace.getConfiguration('lean4').get<string[]>('envPathExtensions', []), dir)) return 'ready'
    if (!explicit && context.globalState.get<boolean>(NEVER_ASK_KEY, false)) return 'declined'
    const add = 'Add and restart Lean'
    const never = 'Never ask'
    // Visible while the question is open: VS Code hides the toast in the bell after a while.
    showStatus('inactive')
    offersOpen++
    let choice: string | undefined
    try {
        choice = await vscode.window.showInformationMessage(
            `lean-assess: put ${dir} first in the Lean 4 setting "lean4.envPathExtensions" so that the Lean server starts behind the lean-assess proxy? The Lean server is restarted.`,
            add,
            'Not now',
            never,
        )
    } finally {
        offersOpen--
    }
    // Closed without an answer: asked again on the next Lean file (the status bar stays).
    offerUnanswered = choice === undefined
    if (choice === never) {
        await context.globalState.update(NEVER_ASK_KEY, true)
        return 'declined'
    }
    if (choice !== add) return 'declined'
    // Read again: another offer (a later Lean file's) may have been answered meanwhile.
    const lean4 = vscode.workspace.getConfiguration('lean4')
    const current = lean4.get<string[]>('envPathExtensions', [])
    if (shimIsFirst(current, dir)) return 'ready'
    // Write where the value already lives, so a workspace override keeps working as the user set it.
    const inspected = lean4.inspect<string[]>('envPathExtensions')
    const target = inspected?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global
    try {
        await lean4.update('envPathExtensions', withShimFirst(current, dir), target)
    } catch (e) {
        // VS Code refuses to write a setting no installed extension declares.
        const msg = `could not write lean4.envPathExtensions (is the Lean 4 extension, leanprover.lean4, installed?): ${e instanceof Error ? e.message : String(e)}`
        say(msg)
        void vscode.window.showErrorMessage(`lean-assess: ${msg}`)
        return 'failed'
    }
    say(`lean4.envPathExtensions now starts with ${dir}`)
    await restartLean()
    return 'restarted'
}

async function removeShim(context: vscode.ExtensionContext): Promise<void> {
    const dir = shimDirectory(context)
    const lean4 = vscode.workspace.getConfiguration('lean4')
    const inspected = lean4.inspect<string[]>('envPathExtensions')
    let changed = false
    for (const [value, target] of [
        [inspected?.globalValue, vscode.ConfigurationTarget.Global],
        [inspected?.workspaceValue, vscode.ConfigurationTarget.Workspace],
    ] as const) {
        if (Array.isArray(value) && value.length !== withoutShim(value, dir).length) {
            await lean4.update('envPathExtensions', withoutShim(value, dir), target)
            changed = true
        }
    }
    if (changed) {
        say(`removed ${dir} from lean4.envPathExtensions`)
        showStatus('inactive')
        await restartLean()
    }
}

/** Run the proxy's code action `wanted` at the cursor. Returns whether one was found and run. */
export async function runProxyAction(wanted: AssessAction): Promise<boolean> {
    const editor = vscode.window.activeTextEditor
    if (editor === undefined) {
        void vscode.window.showInformationMessage('lean-assess: open a Lean file first.')
        return false
    }
    // No itemResolveCount: the proxy's actions carry their command eagerly, and resolving would
    // send them as `codeAction/resolve` towards Lean's resolver (Lean advertises resolveProvider).
    const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
        'vscode.executeCodeActionProvider',
        editor.document.uri,
        editor.selection,
    )
    const action = pickAction(actions, wanted)
    if (action === undefined) {
        void vscode.window.showInformationMessage(
            `lean-assess: no "${ACTION_TITLES[wanted]}" action here. Put the cursor on a theorem that has a reference (it shows a lean-assess code lens); is the Lean server running behind the shim?`,
        )
        return false
    }
    const steps = actionSteps(action as unknown as { title: string; edit?: unknown; command?: unknown; arguments?: unknown[] })
    if (steps.edit !== undefined) await vscode.workspace.applyEdit(steps.edit as vscode.WorkspaceEdit)
    if (steps.command !== undefined) await vscode.commands.executeCommand(steps.command.command, ...steps.command.arguments)
    return true
}

/** "Set reference": the proxy's "Use as reference" action if offered here, else pick a reference file. */
async function setReference(): Promise<void> {
    if (await runProxyActionQuiet('useAsReference')) return
    const picked = await vscode.window.showOpenDialog({
        canSelectMany: false,
        filters: { 'Lean or dataset': ['lean', 'jsonl'] },
        openLabel: 'Use as reference',
    })
    const file = picked?.[0]?.fsPath
    if (file === undefined) return
    const key = file.endsWith('.jsonl') ? 'reference.dataset' : 'reference.file'
    const root = workspaceRoot()
    const value = root !== undefined && !path.relative(root, file).startsWith('..') ? path.relative(root, file) : file
    await vscode.workspace.getConfiguration('leanAssess').update(key, value, vscode.ConfigurationTarget.Workspace)
    say(`leanAssess.${key} = ${value}`)
}

async function runProxyActionQuiet(wanted: AssessAction): Promise<boolean> {
    const editor = vscode.window.activeTextEditor
    if (editor === undefined) return false
    const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
        'vscode.executeCodeActionProvider',
        editor.document.uri,
        editor.selection,
    )
    if (pickAction(actions, wanted) === undefined) return false
    return runProxyAction(wanted)
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
    log = vscode.window.createOutputChannel('lean-assess')
    context.subscriptions.push(log)
    status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Right, 100)
    status.name = 'lean-assess'
    context.subscriptions.push(status)
    offerUnanswered = false
    offersOpen = 0
    context.subscriptions.push(
        vscode.commands.registerCommand(COMMANDS.showDifferences, () => runProxyAction('differences')),
        vscode.commands.registerCommand(COMMANDS.showProofPath, () => runProxyAction('proofPath')),
        vscode.commands.registerCommand(COMMANDS.setReference, () => setReference()),
        vscode.commands.registerCommand(COMMANDS.installShim, () => ensureShim(context, true)),
        vscode.commands.registerCommand(COMMANDS.removeShim, () => removeShim(context)),
        vscode.commands.registerCommand(COMMANDS.showConfig, () => showConfig()),
        vscode.commands.registerCommand(COMMANDS.restartLean, () => restartLean()),
    )
    const leanWasActive = vscode.extensions.getExtension('leanprover.lean4')?.isActive === true
    // The settings layer a server started before this activation runs with: the variable it
    // inherited, else (through the shim) the file beside the shim as it was then.
    const layerBefore = process.env[CONFIG_ENV] ?? (fs.existsSync(settingsFile(context)) ? settingsFile(context) : undefined)
    syncProxyConfig(context)
    const layerNow = process.env[CONFIG_ENV]
    context.subscriptions.push(
        vscode.workspace.onDidChangeConfiguration(async e => {
            if (!e.affectsConfiguration('leanAssess')) return
            let restarted = false
            if (e.affectsConfiguration('leanAssess.path') || e.affectsConfiguration('leanAssess.shimDirectory')) {
                restarted = (await ensureShim(context, false)) === 'restarted'
            }
            if (syncProxyConfig(context) && !restarted) {
                const choice = await vscode.window.showInformationMessage('lean-assess: settings changed. Restart the Lean server to apply them?', 'Restart')
                if (choice === 'Restart') await restartLean()
            }
        }),
    )
    // The offer again on the next Lean file when the last one went unanswered.
    context.subscriptions.push(
        vscode.workspace.onDidOpenTextDocument(async doc => {
            if (!isLeanDocument(doc) || (!offerUnanswered && offersOpen === 0)) return
            offerUnanswered = false
            await ensureShim(context, false)
        }),
    )
    const binary = resolveBinary()
    const shimWasThere = binary !== undefined && shimState(shimDirectory(context), binary, process.platform).kind === 'installed'
    const shim = await ensureShim(context, false)
    // A Lean server started before this activation (the Lean 4 extension, a dependency, activates
    // first; a window reload restores Lean editors) is restarted only when it runs without the
    // shim (installed only now) or with another settings layer than the one now in force: the
    // proxy re-reads the layer's file when it changes, so a reload with the same settings starts
    // Lean once. A restart just done by ensureShim already picked both up.
    const leanActive = leanWasActive || vscode.extensions.getExtension('leanprover.lean4')?.isActive === true
    if (shim === 'ready' && (layerBefore !== layerNow || !shimWasThere) && leanActive) await restartLean()
}

export function deactivate(): void {
    log = undefined
}
