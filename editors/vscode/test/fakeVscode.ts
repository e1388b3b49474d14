// A small in-memory stand-in for the parts of the `vscode` API the extension uses, so activation,
// prompts, setting updates and command routing are tested without downloading VS Code. It records
// every call in `calls` (in order) so tests can check e.g. that a setting changes only after a "yes".
import Module = require('module')

export type Answer = string | undefined

/** An answer that never comes: the message stays open. */
export const OPEN = '(left open)'

export interface FakeState {
    settings: Record<string, { global?: unknown; workspace?: unknown; default?: unknown }>
    answers: Answer[]
    calls: string[]
    commands: Map<string, (...args: unknown[]) => unknown>
    external: Map<string, (...args: unknown[]) => unknown>
    configListeners: ((e: { affectsConfiguration(s: string): boolean }) => unknown)[]
    leanActive: boolean
    activeEditor: unknown
    appliedEdits: unknown[]
    /** Workspace folder paths (multi-root when more than one). */
    folders: string[]
    /** Open documents (`workspace.textDocuments`), and which of them are visible. */
    documents: FakeDocument[]
    visible: FakeDocument[]
    /** Lines written to the output channel. */
    output: string[]
    /** Whether `window.showTextDocument` fails (e.g. a document that cannot be shown). */
    showFails: boolean
    /** Status bar items created (`window.createStatusBarItem`). */
    statusItems: FakeStatusItem[]
    openListeners: ((doc: FakeDocument) => unknown)[]
}

export interface FakeStatusItem {
    text: string
    tooltip?: string
    command?: string
    name?: string
    visible: boolean
    show(): void
    hide(): void
    dispose(): void
}

export interface FakeDocument {
    uri: { fsPath: string }
    languageId: string
}

export function fakeDocument(fsPath: string, languageId = 'lean4'): FakeDocument {
    return { uri: { fsPath }, languageId }
}

export function makeFake(): { api: Record<string, unknown>; state: FakeState } {
    const state: FakeState = {
        settings: {},
        answers: [],
        calls: [],
        commands: new Map(),
        external: new Map(),
        configListeners: [],
        leanActive: false,
        activeEditor: undefined,
        appliedEdits: [],
        folders: ['/proj'],
        documents: [fakeDocument('/proj/Main.lean')],
        visible: [],
        output: [],
        showFails: false,
        statusItems: [],
        openListeners: [],
    }
    const ConfigurationTarget = { Global: 1, Workspace: 2, WorkspaceFolder: 3 }
    const value = (key: string) => {
        const s = state.settings[key]
        if (s === undefined) return undefined
        return s.workspace !== undefined ? s.workspace : s.global !== undefined ? s.global : s.default
    }
    const getConfiguration = (section: string) => ({
        get: (key: string, dflt?: unknown) => {
            const v = value(`${section}.${key}`)
            return v === undefined ? dflt : v
        },
        inspect: (key: string) => {
            const s = state.settings[`${section}.${key}`] ?? {}
            return { key: `${section}.${key}`, globalValue: s.global, workspaceValue: s.workspace, defaultValue: s.default }
        },
        update: async (key: string, v: unknown, target: number) => {
            const full = `${section}.${key}`
            if (!(full in state.settings)) throw new Error(`Unable to write to User Settings because ${full} is not a registered configuration.`)
            const s = (state.settings[full] ??= {})
            if (target === ConfigurationTarget.Global) s.global = v
            else s.workspace = v
            state.calls.push(`update ${full} ${target === ConfigurationTarget.Global ? 'global' : 'workspace'} ${JSON.stringify(v)}`)
        },
    })
    const message = (kind: string) => async (msg: string, ...items: string[]) => {
        const answer = items.length > 0 ? state.answers.shift() : undefined
        state.calls.push(`${kind} ${msg} [${items.join('|')}] -> ${answer ?? '(none)'}`)
        // A message left open (in VS Code: a toast moved into the bell): never resolves here.
        if (answer === OPEN) return new Promise<Answer>(() => undefined)
        return answer
    }
    const api = {
        ConfigurationTarget,
        StatusBarAlignment: { Left: 1, Right: 2 },
        workspace: {
            getConfiguration,
            get workspaceFolders() {
                return state.folders.map(f => ({ uri: { fsPath: f } }))
            },
            get textDocuments() {
                return state.documents
            },
            onDidOpenTextDocument: (l: FakeState['openListeners'][number]) => {
                state.openListeners.push(l)
                return { dispose() {} }
            },
            onDidChangeConfiguration: (l: FakeState['configListeners'][number]) => {
                state.configListeners.push(l)
                return { dispose() {} }
            },
            applyEdit: async (edit: unknown) => {
                state.appliedEdits.push(edit)
                state.calls.push(`applyEdit ${JSON.stringify(edit)}`)
                return true
            },
        },
        window: {
            createOutputChannel: () => ({
                appendLine: (l: string) => void state.output.push(l),
                show() {},
                dispose() {},
            }),
            createStatusBarItem: () => {
                const item: FakeStatusItem = {
                    text: '',
                    visible: false,
                    show() {
                        item.visible = true
                    },
                    hide() {
                        item.visible = false
                    },
                    dispose() {
                        item.visible = false
                    },
                }
                state.statusItems.push(item)
                return item
            },
            get visibleTextEditors() {
                return state.visible.map(document => ({ document }))
            },
            showTextDocument: async (document: FakeDocument) => {
                state.calls.push(`show ${document.uri.fsPath}`)
                if (state.showFails) throw new Error('cannot show')
                if (!state.visible.includes(document)) state.visible.push(document)
                state.activeEditor = { document, selection: {} }
                return state.activeEditor
            },
            showInformationMessage: message('info'),
            showWarningMessage: message('warning'),
            showErrorMessage: message('error'),
            showOpenDialog: async () => undefined,
            get activeTextEditor() {
                return state.activeEditor
            },
        },
        commands: {
            registerCommand: (id: string, fn: (...args: unknown[]) => unknown) => {
                if (state.commands.has(id)) throw new Error(`command '${id}' already exists`)
                state.commands.set(id, fn)
                return { dispose: () => state.commands.delete(id) }
            },
            executeCommand: async (id: string, ...args: unknown[]) => {
                state.calls.push(`exec ${id} ${JSON.stringify(args.filter(a => a !== undefined && !(typeof a === 'object' && a !== null && 'fsPath' in a)))}`)
                const own = state.commands.get(id)
                if (own) return own(...args)
                const ext = state.external.get(id)
                if (ext) return ext(...args)
                throw new Error(`command '${id}' not found`)
            },
        },
        extensions: {
            getExtension: (id: string) => (id === 'leanprover.lean4' ? { isActive: state.leanActive } : undefined),
        },
    }
    return { api, state }
}

let current: Record<string, unknown> | undefined
type Loader = (request: string, parent: unknown, isMain: boolean) => unknown
const mod = Module as unknown as { _load: Loader }
const original = mod._load
mod._load = function (request: string, parent: unknown, isMain: boolean) {
    if (request === 'vscode') {
        if (current === undefined) throw new Error('fake vscode not installed')
        return current
    }
    return original.call(this, request, parent, isMain)
}

/** Load a fresh copy of the compiled extension against `api`. */
export function loadExtension(api: Record<string, unknown>): typeof import('../src/extension') {
    current = api
    const file = require.resolve('../src/extension')
    delete require.cache[file]
    return require(file)
}
