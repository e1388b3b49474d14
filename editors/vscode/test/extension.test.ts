// Activation and commands of the extension against the fake `vscode` API (test/fakeVscode.ts).
import { test, beforeEach, afterEach } from 'node:test'
import * as assert from 'node:assert/strict'
import * as fs from 'fs'
import * as os from 'os'
import * as path from 'path'
import { makeFake, loadExtension, FakeState } from './fakeVscode'

const packageJson = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'))
const savedEnv = process.env.LEAN_ASSESS_CONFIG

let root: string
let bin: string
let shim: string

// `lean-assess shim DIR` as the contract describes it: DIR/lake and DIR/lean → this binary;
// `serve --show-config DOC` prints the layers.
function writeFakeBinary(file: string): void {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(
        file,
        '#!/bin/sh\nif [ "$1" = serve ] && [ "$2" = --show-config ]; then echo "config for $3 in $(pwd) with ${LEAN_ASSESS_CONFIG:-none}"; exit 0; fi\n[ "$1" = shim ] || exit 2\nmkdir -p "$2" && ln -sf "$0" "$2/lake" && ln -sf "$0" "$2/lean"\n',
    )
    fs.chmodSync(file, 0o755)
}

function context(storage: string) {
    const memento = new Map<string, unknown>()
    return {
        subscriptions: [] as { dispose(): void }[],
        globalStorageUri: { fsPath: storage },
        globalState: {
            get: (k: string, d?: unknown) => (memento.has(k) ? memento.get(k) : d),
            update: async (k: string, v: unknown) => void memento.set(k, v),
        },
    }
}

function setup(extra: (s: FakeState) => void = () => {}) {
    const { api, state } = makeFake()
    state.settings['leanAssess.path'] = { global: bin }
    state.settings['lean4.envPathExtensions'] = { default: [] }
    state.external.set('lean4.restartServer', () => undefined)
    extra(state)
    const ext = loadExtension(api)
    const ctx = context(path.join(root, 'storage'))
    return { ext, state, ctx, api }
}

beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'lean-assess-ext-'))
    bin = path.join(root, 'bin', 'lean-assess')
    writeFakeBinary(bin)
    shim = path.join(root, 'storage', 'shim')
    delete process.env.LEAN_ASSESS_CONFIG
})

afterEach(() => {
    if (savedEnv === undefined) delete process.env.LEAN_ASSESS_CONFIG
    else process.env.LEAN_ASSESS_CONFIG = savedEnv
})

test('activate registers exactly the commands package.json contributes', async () => {
    const { ext, state, ctx } = setup(s => s.answers.push('Not now'))
    await ext.activate(ctx as never)
    const contributed = packageJson.contributes.commands.map((c: { command: string }) => c.command).sort()
    assert.deepEqual([...state.commands.keys()].sort(), contributed)
    assert.deepEqual(Object.values(ext.COMMANDS).sort(), contributed)
})

test('a workspace cannot choose the binary or the shim directory: user settings only, restricted when untrusted', async () => {
    const evil = path.join(root, 'evil', 'lean-assess')
    writeFakeBinary(evil)
    const { ext, ctx } = setup(s => {
        s.answers.push('Not now')
        s.settings['leanAssess.path'] = { global: bin, workspace: evil }
        s.settings['leanAssess.shimDirectory'] = { workspace: path.join(root, 'evil-shim') }
    })
    await ext.activate(ctx as never)
    assert.equal(ext.resolveBinary(), bin)
    assert.equal(ext.shimDirectory(ctx as never), shim)
    assert.ok(!fs.existsSync(path.join(root, 'evil-shim')), 'the workspace\'s shim directory was used')
    const props = packageJson.contributes.configuration.properties
    for (const key of ['leanAssess.path', 'leanAssess.shimDirectory']) {
        assert.equal(props[key].scope, 'application', key)
        assert.ok(packageJson.capabilities.untrustedWorkspaces.restrictedConfigurations.includes(key), key)
    }
})

test('every leanAssess setting the config renderer reads is contributed in package.json', () => {
    const props = Object.keys(packageJson.contributes.configuration.properties)
    for (const key of ['path', 'shimDirectory', 'reference.file', 'reference.dataset', 'reference.pairs', 'metrics.lens', 'metrics.transtedTimeoutMs', 'metrics.beqTimeoutMs', 'llm.baseUrl', 'llm.model', 'llm.apiKeyEnv', 'llm.samples']) {
        assert.ok(props.includes(`leanAssess.${key}`), `leanAssess.${key} contributed`)
    }
})

test('activation installs the shim and asks before touching lean4.envPathExtensions: "Not now" changes nothing', async () => {
    const { ext, state, ctx } = setup(s => s.answers.push('Not now'))
    await ext.activate(ctx as never)
    assert.equal(fs.realpathSync(path.join(shim, 'lake')), fs.realpathSync(bin))
    assert.equal(state.calls.filter(c => c.startsWith('info ')).length, 1)
    assert.match(state.calls.find(c => c.startsWith('info '))!, /lean4\.envPathExtensions/)
    assert.ok(!state.calls.some(c => c.startsWith('update ')), 'no setting written')
    assert.ok(!state.calls.some(c => c.startsWith('exec lean4.restartServer')), 'no restart')
})

test('"Add and restart Lean" puts the shim first in user settings, then restarts the Lean server', async () => {
    const { ext, state, ctx } = setup(s => {
        s.answers.push('Add and restart Lean')
        s.settings['lean4.envPathExtensions'] = { global: ['/opt/tools'], default: [] }
    })
    await ext.activate(ctx as never)
    const update = state.calls.findIndex(c => c.startsWith('update lean4.envPathExtensions global'))
    const restart = state.calls.findIndex(c => c.startsWith('exec lean4.restartServer'))
    assert.ok(update >= 0 && restart > update, `update then restart: ${state.calls.join('\n')}`)
    assert.deepEqual(state.settings['lean4.envPathExtensions'].global, [shim, '/opt/tools'])
})

test('a workspace-level envPathExtensions is updated at workspace level', async () => {
    const { ext, state, ctx } = setup(s => {
        s.answers.push('Add and restart Lean')
        s.settings['lean4.envPathExtensions'] = { workspace: ['./tools'], default: [] }
    })
    await ext.activate(ctx as never)
    assert.deepEqual(state.settings['lean4.envPathExtensions'].workspace, [shim, './tools'])
    assert.equal(state.settings['lean4.envPathExtensions'].global, undefined)
})

test('no prompt when the shim is already first; "Never ask" silences activation but not the install command', async () => {
    {
        const { ext, state, ctx } = setup(s => {
            s.settings['lean4.envPathExtensions'] = { global: [path.join(root, 'storage', 'shim')] }
        })
        await ext.activate(ctx as never)
        assert.ok(!state.calls.some(c => c.startsWith('info ')), state.calls.join('\n'))
    }
    const { ext, state, ctx } = setup(s => s.answers.push('Never ask'))
    await ext.activate(ctx as never)
    assert.equal(ctx.globalState.get('leanAssess.neverAskShim'), true)
    const before = state.calls.length
    assert.equal(await ext.ensureShim(ctx as never, false), 'declined')
    assert.ok(!state.calls.slice(before).some(c => c.startsWith('info ')), 'not asked again on activation')
    state.answers.push('Add and restart Lean')
    assert.equal(await ext.ensureShim(ctx as never, true), 'restarted')
    assert.deepEqual(state.settings['lean4.envPathExtensions'].global, [shim])
})

test('without the Lean 4 extension the setting cannot be written: reported, no restart', async () => {
    const { ext, state, ctx } = setup(s => {
        delete s.settings['lean4.envPathExtensions'] // nobody declares it
        s.answers.push('Add and restart Lean')
    })
    await ext.activate(ctx as never)
    assert.ok(state.calls.some(c => c.startsWith('error ') && c.includes('leanprover.lean4')), state.calls.join('\n'))
    assert.ok(!state.calls.some(c => c.startsWith('exec lean4.restartServer')))
})

test('a missing binary is reported with a way to the setting, and nothing is changed', async () => {
    const { ext, state, ctx } = setup(s => {
        s.settings['leanAssess.path'] = { global: path.join(root, 'nowhere', 'lean-assess') }
        s.answers.push(undefined)
    })
    await ext.activate(ctx as never)
    assert.ok(state.calls.some(c => c.startsWith('warning ') && c.includes('not found')), state.calls.join('\n'))
    assert.ok(!state.calls.some(c => c.startsWith('update ')))
    assert.ok(!fs.existsSync(path.join(shim, 'lake')))
})

test('leanAssess settings become the LEAN_ASSESS_CONFIG file; none set means the variable is unset', async () => {
    const { ext, state, ctx } = setup(s => {
        s.answers.push('Not now')
        s.settings['leanAssess.reference.file'] = { workspace: 'Reference.lean' }
        s.settings['leanAssess.metrics.lens'] = { global: ['ted', 'beq'] }
    })
    await ext.activate(ctx as never)
    const file = process.env.LEAN_ASSESS_CONFIG
    assert.equal(file, path.join(root, 'storage', 'shim', 'lean-assess-settings.toml'))
    const text = fs.readFileSync(file!, 'utf8')
    assert.match(text, /^\[reference\]\nfile = "\/proj\/Reference\.lean"$/m)
    assert.match(text, /^lens = \["ted", "beq"\]$/m)
    // The user clears the settings: the variable goes, so a project lean-assess.toml applies again.
    delete state.settings['leanAssess.reference.file']
    delete state.settings['leanAssess.metrics.lens']
    assert.equal(ext.syncProxyConfig(ctx as never), true)
    assert.equal(process.env.LEAN_ASSESS_CONFIG, undefined)
    assert.ok(!fs.existsSync(file!), 'the file beside the shim goes too, so the shim passes no layer')
})

test('changing a leanAssess setting rewrites the config and offers a restart', async () => {
    const { ext, state, ctx } = setup(s => s.answers.push('Not now'))
    await ext.activate(ctx as never)
    state.settings['leanAssess.metrics.beqTimeoutMs'] = { global: 1234 }
    state.answers.push('Restart')
    for (const l of state.configListeners) await l({ affectsConfiguration: (s: string) => s === 'leanAssess' || s === 'leanAssess.metrics.beqTimeoutMs' })
    assert.match(fs.readFileSync(process.env.LEAN_ASSESS_CONFIG!, 'utf8'), /beq_timeout_ms = 1234/)
    const asked = state.calls.findIndex(c => c.startsWith('info lean-assess: settings changed'))
    assert.ok(asked >= 0 && state.calls.slice(asked).some(c => c.startsWith('exec lean4.restartServer')), state.calls.join('\n'))
})

test('a server started before activation is restarted once so it sees the config', async () => {
    const { ext, state, ctx } = setup(s => {
        s.leanActive = true
        s.settings['lean4.envPathExtensions'] = { global: [path.join(root, 'storage', 'shim')] }
        s.settings['leanAssess.metrics.lens'] = { global: ['ted'] }
    })
    await ext.activate(ctx as never)
    assert.equal(state.calls.filter(c => c.startsWith('exec lean4.restartServer')).length, 1)
})

test('Show differences / Show proof path / Set reference run the proxy code action at the cursor', async () => {
    const { ext, state, ctx } = setup(s => s.answers.push('Not now'))
    await ext.activate(ctx as never)
    state.activeEditor = { document: { uri: { fsPath: '/proj/Auto.lean' } }, selection: { start: 3 } }
    const actions = [
        { title: 'Try this: simp', edit: { lean: 1 } },
        { title: 'Show differences', command: { title: 'Show differences', command: 'lean-assess.12345.differences', arguments: [{ uri: 'file:///proj/Auto.lean', theorem: 't' }] } },
        { title: 'Show proof path', command: { title: 'Show proof path', command: 'lean-assess.12345.path', arguments: ['t'] } },
        { title: 'Use as reference', edit: { changes: 'directive' } },
    ]
    state.external.set('vscode.executeCodeActionProvider', () => actions)
    const ran: unknown[][] = []
    state.external.set('lean-assess.12345.differences', (...a) => void ran.push(['differences', ...a]))
    state.external.set('lean-assess.12345.path', (...a) => void ran.push(['path', ...a]))
    await state.commands.get('leanAssess.showDifferences')!()
    await state.commands.get('leanAssess.showProofPath')!()
    await state.commands.get('leanAssess.setReference')!()
    assert.deepEqual(ran, [
        ['differences', { uri: 'file:///proj/Auto.lean', theorem: 't' }],
        ['path', 't'],
    ])
    assert.deepEqual(state.appliedEdits, [{ changes: 'directive' }])
})

test('with no proxy action at the cursor the user is told why, and nothing runs', async () => {
    const { state, ctx, ext } = setup(s => s.answers.push('Not now'))
    await ext.activate(ctx as never)
    state.activeEditor = { document: { uri: { fsPath: '/proj/Auto.lean' } }, selection: {} }
    state.external.set('vscode.executeCodeActionProvider', () => [{ title: 'Try this: simp', edit: {} }])
    assert.equal(await ext.runProxyAction('differences'), false)
    assert.ok(state.calls.some(c => c.startsWith('info lean-assess: no "show differences" action here')), state.calls.join('\n'))
    assert.deepEqual(state.appliedEdits, [])
})

test('restart brings a Lean editor of each folder forward and restarts every folder\'s server; says what it did', async () => {
    const { fakeDocument } = await import('./fakeVscode')
    const { ext, state, ctx } = setup(s => s.answers.push('Not now'))
    await ext.activate(ctx as never)
    const a = fakeDocument('/a/A.lean')
    const b = fakeDocument('/b/B.lean', 'lean') // the Lean 4 extension also serves language id `lean`
    const md = fakeDocument('/c/README.md', 'markdown')
    state.folders = ['/a', '/b', '/c']
    state.documents = [md, a, b]
    state.visible = [md] // no Lean editor visible
    state.activeEditor = { document: md, selection: {} }
    const focused: string[] = []
    state.external.set('lean4.restartServer', () => {
        focused.push((state.activeEditor as { document: { uri: { fsPath: string } } }).document.uri.fsPath)
    })
    const report = await ext.restartLean()
    assert.deepEqual(focused, ['/a/A.lean', '/b/B.lean'], state.calls.join('\n'))
    assert.match(report[0], /^\/a: asked the Lean 4 extension to restart the server of \/a\/A\.lean/)
    assert.match(report[2], /^\/c: no Lean file open/)
    // No Lean editor was visible: the last one shown stays (switching back to the Markdown
    // editor would hide and dispose the editor the Lean 4 extension is restarting).
    assert.equal((state.activeEditor as { document: unknown }).document, b)
    assert.ok(state.output.some(l => l.includes('restart: /b: asked')), state.output.join('\n'))

    // Lean editors visible (other groups): each is focused in turn, then the user's editor again.
    state.visible = [md, a, b]
    state.activeEditor = { document: md, selection: {} }
    focused.length = 0
    await ext.restartLean()
    assert.deepEqual(focused, ['/a/A.lean', '/b/B.lean'])
    assert.equal((state.activeEditor as { document: unknown }).document, md)
    state.visible = [md]
    state.activeEditor = { document: md, selection: {} }

    // A document that cannot be brought forward: not "restarted", and the user is told what to do.
    state.showFails = true
    focused.length = 0
    const failed = await ext.restartLean()
    assert.deepEqual(focused, [])
    assert.match(failed[0], /could not bring \/a\/A\.lean forward.*"Lean 4: Server: Restart Server"/)
    assert.ok(state.calls.some(c => c.startsWith('warning lean-assess: the Lean server was not restarted in /a, /b')), state.calls.join('\n'))
})

test('leanAssess.llm.* from workspace settings never reach the proxy; from user settings they do', async () => {
    const { ext, state, ctx } = setup(s => {
        s.answers.push('Not now')
        s.settings['leanAssess.llm.baseUrl'] = { workspace: 'http://evil.example/v1' }
        s.settings['leanAssess.llm.apiKeyEnv'] = { workspace: 'AWS_SECRET_ACCESS_KEY' }
        s.settings['leanAssess.llm.model'] = { workspace: 'm' }
        s.settings['leanAssess.metrics.lens'] = { workspace: ['ted'] }
    })
    await ext.activate(ctx as never)
    const text = fs.readFileSync(process.env.LEAN_ASSESS_CONFIG!, 'utf8')
    assert.doesNotMatch(text, /\[llm\]|evil|AWS_SECRET/, text)
    state.settings['leanAssess.llm.baseUrl'] = { global: 'http://127.0.0.1:8000/v1' }
    state.settings['leanAssess.llm.model'] = { global: 'm' }
    state.settings['leanAssess.llm.apiKeyEnv'] = { global: 'MY_KEY', workspace: 'AWS_SECRET_ACCESS_KEY' }
    ext.syncProxyConfig(ctx as never)
    const user = fs.readFileSync(process.env.LEAN_ASSESS_CONFIG!, 'utf8')
    assert.match(user, /base_url = "http:\/\/127\.0\.0\.1:8000\/v1"/)
    assert.match(user, /api_key_env = "MY_KEY"/)
    assert.doesNotMatch(user, /AWS_SECRET/)
    for (const key of ['baseUrl', 'model', 'apiKeyEnv', 'samples']) {
        assert.equal(packageJson.contributes.configuration.properties[`leanAssess.llm.${key}`].scope, 'application', `leanAssess.llm.${key} is user-only`)
    }
})

test('Show Configuration runs `lean-assess serve --show-config` for the active file in its folder, with the settings layer', async () => {
    const { ext, state, ctx } = setup(s => {
        s.answers.push('Not now')
        s.settings['leanAssess.metrics.lens'] = { global: ['ted'] }
    })
    await ext.activate(ctx as never)
    state.folders = [root]
    state.activeEditor = { document: { uri: { fsPath: path.join(root, 'A.lean') }, languageId: 'lean4' }, selection: {} }
    const text = await state.commands.get('leanAssess.showConfig')!()
    assert.equal(text, `config for ${path.join(root, 'A.lean')} in ${fs.realpathSync(root)} with ${path.join(root, 'storage', 'shim', 'lean-assess-settings.toml')}\n`)
    assert.ok(state.output.some(l => l.includes('] config for ')), state.output.join('\n'))
})

test('activation and commands cover both language ids of the Lean 4 extension, and declare it', () => {
    assert.ok(packageJson.activationEvents.includes('onLanguage:lean4'))
    assert.ok(packageJson.activationEvents.includes('onLanguage:lean'))
    assert.deepEqual(packageJson.extensionDependencies, ['leanprover.lean4'])
    for (const m of packageJson.contributes.menus.commandPalette) {
        assert.equal(m.when, 'editorLangId == lean4 || editorLangId == lean', m.command)
    }
})

test('a Lean server that started before the shim was installed is restarted once (found in the real host)', async () => {
    const { ext, state, ctx } = setup(s => {
        s.leanActive = true // the Lean 4 extension, our dependency, activates first
        s.settings['lean4.envPathExtensions'] = { global: [path.join(root, 'storage', 'shim')] }
    })
    await ext.activate(ctx as never)
    assert.equal(state.calls.filter(c => c.startsWith('exec lean4.restartServer')).length, 1, state.calls.join('\n'))
    // Next activation: shim already there, no settings: no restart.
    const again = setup(s => {
        s.leanActive = true
        s.settings['lean4.envPathExtensions'] = { global: [path.join(root, 'storage', 'shim')] }
    })
    await again.ext.activate(again.ctx as never)
    assert.equal(again.state.calls.filter(c => c.startsWith('exec lean4.restartServer')).length, 0, again.state.calls.join('\n'))
})

test('a window reload with the same settings restarts nothing; other settings than the running server\'s restart it once', async () => {
    const settingsAt = path.join(root, 'storage', 'shim', 'lean-assess-settings.toml')
    const withLens = (s: FakeState) => {
        s.leanActive = true // the Lean 4 extension, activated first, has started its server
        s.settings['lean4.envPathExtensions'] = { global: [path.join(root, 'storage', 'shim')] }
        s.settings['leanAssess.metrics.lens'] = { global: ['ted'] }
    }
    // First window: the settings file did not exist, so the running server has no layer: one restart.
    const first = setup(withLens)
    await first.ext.activate(first.ctx as never)
    assert.equal(first.state.calls.filter(c => c.startsWith('exec lean4.restartServer')).length, 1, first.state.calls.join('\n'))
    assert.ok(fs.existsSync(settingsAt))
    // Reload: a new extension host (LEAN_ASSESS_CONFIG not set yet), the same settings. The server
    // the Lean 4 extension started before this activation got the layer from beside the shim.
    delete process.env.LEAN_ASSESS_CONFIG
    const reload = setup(withLens)
    await reload.ext.activate(reload.ctx as never)
    assert.equal(reload.state.calls.filter(c => c.startsWith('exec lean4.restartServer')).length, 0, reload.state.calls.join('\n'))
    assert.equal(process.env.LEAN_ASSESS_CONFIG, settingsAt)
    // Reload with other values: the proxy re-reads the file, so still no restart.
    delete process.env.LEAN_ASSESS_CONFIG
    const changed = setup(s => {
        withLens(s)
        s.settings['leanAssess.metrics.lens'] = { global: ['ted', 'beq'] }
    })
    await changed.ext.activate(changed.ctx as never)
    assert.equal(changed.state.calls.filter(c => c.startsWith('exec lean4.restartServer')).length, 0, changed.state.calls.join('\n'))
    assert.match(fs.readFileSync(settingsAt, 'utf8'), /lens = \["ted", "beq"\]/)
    // Reload after the settings were all cleared: the running server has the layer, the new
    // state has none (the file is removed): restart once.
    delete process.env.LEAN_ASSESS_CONFIG
    const cleared = setup(s => {
        s.leanActive = true
        s.settings['lean4.envPathExtensions'] = { global: [path.join(root, 'storage', 'shim')] }
    })
    await cleared.ext.activate(cleared.ctx as never)
    assert.equal(cleared.state.calls.filter(c => c.startsWith('exec lean4.restartServer')).length, 1, cleared.state.calls.join('\n'))
    assert.ok(!fs.existsSync(settingsAt))
})

test('while the shim is not in front of Lean the status bar says so (click: set up), and an unanswered offer comes again on the next Lean file', async () => {
    // The offer is never answered (the toast went to the bell, or was closed).
    const { ext, state, ctx } = setup(s => s.answers.push(undefined))
    await ext.activate(ctx as never)
    const item = state.statusItems[0]
    assert.ok(item !== undefined, 'a status bar item is created')
    assert.ok(item.visible, 'and shown')
    assert.match(item.text, /lean-assess: inactive/)
    assert.match(item.tooltip ?? '', /[Cc]lick to set up/)
    assert.equal(item.command, 'leanAssess.installShim')
    assert.equal(state.calls.filter(c => c.startsWith('info lean-assess: put')).length, 1)
    const { fakeDocument } = await import('./fakeVscode')
    // A Markdown file: nothing. The next Lean file: the offer again; this time "Add".
    for (const l of state.openListeners) await l(fakeDocument('/proj/notes.md', 'markdown'))
    assert.equal(state.calls.filter(c => c.startsWith('info lean-assess: put')).length, 1)
    state.answers.push('Add and restart Lean')
    for (const l of state.openListeners) await l(fakeDocument('/proj/Other.lean'))
    assert.equal(state.calls.filter(c => c.startsWith('info lean-assess: put')).length, 2, state.calls.join('\n'))
    assert.deepEqual(state.settings['lean4.envPathExtensions'].global, [shim])
    assert.ok(!item.visible, 'hidden once the proxy is in front of Lean')
    // "Remove the Proxy…": inactive again.
    await state.commands.get('leanAssess.removeShim')!()
    assert.deepEqual(state.settings['lean4.envPathExtensions'].global, [])
    assert.ok(item.visible)
    assert.match(item.text, /lean-assess: inactive/)

    // "Not now" is an answer: not asked again on the next Lean file, but the item stays and its
    // command asks (it is the install command, which asks even after "Never ask").
    const other = setup(s => s.answers.push('Not now'))
    await other.ext.activate(other.ctx as never)
    const item2 = other.state.statusItems[0]
    assert.ok(item2.visible)
    for (const l of other.state.openListeners) await l(fakeDocument('/proj/Other.lean'))
    assert.equal(other.state.calls.filter(c => c.startsWith('info lean-assess: put')).length, 1)
    other.state.answers.push('Add and restart Lean')
    await other.state.commands.get(item2.command!)!()
    assert.equal(other.state.calls.filter(c => c.startsWith('info lean-assess: put')).length, 2)
    assert.ok(!item2.visible)
})

test('an offer left open (in the bell) is made again on the next Lean file', async () => {
    const { OPEN, fakeDocument } = await import('./fakeVscode')
    const { ext, state, ctx } = setup(s => s.answers.push(OPEN))
    // Activation waits for the answer to its offer; the offer stays open, so do not await it.
    void ext.activate(ctx as never)
    await new Promise(r => setTimeout(r, 200))
    const item = state.statusItems[0]
    assert.ok(item.visible)
    assert.match(item.text, /lean-assess: inactive/)
    assert.equal(state.calls.filter(c => c.startsWith('info lean-assess: put')).length, 1)
    state.answers.push('Add and restart Lean')
    for (const l of state.openListeners) await l(fakeDocument('/proj/Main.lean'))
    assert.equal(state.calls.filter(c => c.startsWith('info lean-assess: put')).length, 2, state.calls.join('\n'))
    assert.deepEqual(state.settings['lean4.envPathExtensions'].global, [shim])
    assert.ok(!item.visible)
    // Set up: the next Lean file asks nothing (the first offer is still open, but the shim is first).
    for (const l of state.openListeners) await l(fakeDocument('/proj/Third.lean'))
    assert.equal(state.calls.filter(c => c.startsWith('info lean-assess: put')).length, 2)
})

test('without the binary the status bar says so and leads to the setting', async () => {
    const { ext, state, ctx } = setup(s => {
        s.settings['leanAssess.path'] = { global: path.join(root, 'nowhere', 'lean-assess') }
        s.answers.push(undefined)
    })
    await ext.activate(ctx as never)
    const item = state.statusItems[0]
    assert.ok(item.visible)
    assert.match(item.text, /lean-assess: no binary/)
    assert.equal(item.command, 'leanAssess.installShim')
})

test('messages name the restart command by its palette title in vscode-lean4', () => {
    const { api } = makeFake()
    const ext = loadExtension(api)
    assert.equal(ext.LEAN_RESTART_TITLE, 'Lean 4: Server: Restart Server')
    const vscodeDir = path.join(__dirname, '..', '..')
    const sources = [
        path.join(vscodeDir, 'src', 'extension.ts'),
        path.join(vscodeDir, 'package.json'),
        path.join(vscodeDir, 'realhost', 'drive.js'),
        path.join(vscodeDir, 'realhost', 'lean4-client', 'package.json'),
        path.join(vscodeDir, '..', 'README.md'),
        path.join(vscodeDir, '..', '..', 'README.md'),
    ]
    for (const f of sources) assert.ok(!/Lean 4: Restart Server/.test(fs.readFileSync(f, 'utf8')), `${f} names "Lean 4: Restart Server", which vscode-lean4 does not have`)
})
