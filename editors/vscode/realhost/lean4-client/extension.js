// Test-only stand-in for the Lean 4 extension's client start-up, written from reading
// leanprover/vscode-lean4 (vscode-lean4/src/leanclient.ts, utils/projectInfo.ts): one client per
// workspace folder, started on the first Lean document of that folder; the server is
// `lake serve -- <folder>` when the folder has lakefile.lean/lakefile.toml, else
// `lean --server <folder>`, looked up on a PATH whose front is `lean4.envPathExtensions` then
// `~/.elan/bin`, with cwd = folder and a copy of process.env; `lean4.restartServer` ("Lean 4:
// Server: Restart Server") restarts the client of the focused Lean editor and, with none, shows
// "Cannot restart server: No focused Lean tab" and returns normally. Used only where the real
// vscode-lean4 (../shared/clients) is not at hand; realhost/run.sh says so when it is.
const vscode = require('vscode')
const fs = require('fs')
const path = require('path')
const { LanguageClient } = require('vscode-languageclient/node')

const clients = new Map() // folder path -> LanguageClient

function serverFor(folder) {
    const lake = ['lakefile.lean', 'lakefile.toml'].some(f => fs.existsSync(path.join(folder, f)))
    const ext = vscode.workspace.getConfiguration('lean4').get('envPathExtensions', [])
    const env = Object.assign({}, process.env)
    env.PATH = [...ext, path.join(require('os').homedir(), '.elan', 'bin'), env.PATH].join(path.delimiter)
    return lake
        ? { command: 'lake', args: ['serve', '--', folder], options: { cwd: folder, env } }
        : { command: 'lean', args: ['--server', folder], options: { cwd: folder, env } }
}

async function startFor(doc) {
    if (doc.languageId !== 'lean4' || doc.uri.scheme !== 'file') return
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri)
    if (!folder) return
    const key = folder.uri.fsPath
    if (clients.has(key)) return
    const client = new LanguageClient('lean4', `Lean 4 (${folder.name})`, serverFor(key), {
        documentSelector: [{ scheme: 'file', language: 'lean4', pattern: `${key}/**/*` }],
        workspaceFolder: folder,
        initializationOptions: { editDelay: 200, hasWidgets: true },
    })
    clients.set(key, client)
    // As vscode-lean4: a server that fails to start is reported, not an activation failure.
    try {
        await client.start()
    } catch (e) {
        void vscode.window.showErrorMessage(`Lean 4 test client: ${e && e.message}`)
    }
}

async function activate(context) {
    context.subscriptions.push(
        vscode.workspace.onDidOpenTextDocument(startFor),
        vscode.commands.registerCommand('lean4.restartServer', async () => {
            const editor = vscode.window.activeTextEditor
            if (!editor || editor.document.languageId !== 'lean4') {
                void vscode.window.showErrorMessage('Cannot restart server: No focused Lean tab')
                return
            }
            const folder = vscode.workspace.getWorkspaceFolder(editor.document.uri)
            const client = folder && clients.get(folder.uri.fsPath)
            if (client) {
                clients.delete(folder.uri.fsPath)
                await client.stop()
            }
            await startFor(editor.document)
        }),
    )
    for (const doc of vscode.workspace.textDocuments) await startFor(doc)
}

async function deactivate() {
    await Promise.all([...clients.values()].map(c => c.stop()))
}

module.exports = { activate, deactivate }
