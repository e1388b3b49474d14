// Integration: the Lean 4 extension's way of starting the server, with this extension's pieces.
// vscode-lean4 spawns `lake serve -- <folder>` by bare name with cwd = folder and a copy of
// process.env whose PATH starts with lean4.envPathExtensions (editors-and-peers-research.md §A1);
// here that PATH starts with the shim directory that installShim made with the real
// `lean-assess`, the "real lake" behind it is the Lean stand-in, and LEAN_ASSESS_CONFIG names the
// file renderConfig wrote from settings. A small LSP client then checks that the settings reached
// the proxy (a reference found only through them; the lens shows only the metrics they list).
// Runs when LEAN_ASSESS_BIN (with `serve`) and LEAN_STANDIN_BIN are built; test.sh sets both.
import { test } from 'node:test'
import * as assert from 'node:assert/strict'
import * as fs from 'fs'
import * as os from 'os'
import * as path from 'path'
import { spawn, execFileSync, ChildProcessWithoutNullStreams } from 'child_process'
import { installShim } from '../src/core/shim'
import { readSettings, renderConfig } from '../src/core/config'

const bin = process.env.LEAN_ASSESS_BIN
const standin = process.env.LEAN_STANDIN_BIN

function missing(): string | undefined {
    if (bin === undefined || !fs.existsSync(bin)) return 'LEAN_ASSESS_BIN is not set to a built lean-assess'
    if (standin === undefined || !fs.existsSync(standin)) return 'LEAN_STANDIN_BIN is not set to a built lean-standin'
    try {
        const help = execFileSync(bin, ['serve', '--help'], { stdio: ['ignore', 'pipe', 'pipe'] }).toString()
        if (!/usage:.*serve/i.test(help)) return `${bin} has no \`serve\` command`
    } catch {
        return `${bin} has no \`serve\` command`
    }
    return undefined
}

/** Just enough of an LSP client: framing, ids, replies to the server's requests. */
class Client {
    private buf = Buffer.alloc(0)
    private nextId = 1
    private waiting = new Map<number, (msg: { result?: unknown; error?: unknown }) => void>()
    readonly stderr: string[] = []

    constructor(readonly proc: ChildProcessWithoutNullStreams) {
        proc.stdout.on('data', (chunk: Buffer) => this.feed(chunk))
        proc.stderr.on('data', (chunk: Buffer) => this.stderr.push(chunk.toString()))
    }

    private feed(chunk: Buffer): void {
        this.buf = Buffer.concat([this.buf, chunk])
        for (;;) {
            const headerEnd = this.buf.indexOf('\r\n\r\n')
            if (headerEnd < 0) return
            const m = /content-length:\s*(\d+)/i.exec(this.buf.subarray(0, headerEnd).toString())
            if (!m) throw new Error(`bad header: ${this.buf.subarray(0, headerEnd).toString()}`)
            const len = Number(m[1])
            if (this.buf.length < headerEnd + 4 + len) return
            const msg = JSON.parse(this.buf.subarray(headerEnd + 4, headerEnd + 4 + len).toString())
            this.buf = this.buf.subarray(headerEnd + 4 + len)
            this.dispatch(msg)
        }
    }

    private dispatch(msg: { id?: number | string; method?: string; result?: unknown; error?: unknown }): void {
        if (msg.method !== undefined && msg.id !== undefined) {
            // client/registerCapability, workspace/codeLens/refresh, ...: a client says yes.
            this.write({ jsonrpc: '2.0', id: msg.id, result: null })
        } else if (msg.method === undefined && typeof msg.id === 'number') {
            this.waiting.get(msg.id)?.(msg)
            this.waiting.delete(msg.id)
        }
    }

    private write(msg: unknown): void {
        const body = Buffer.from(JSON.stringify(msg))
        this.proc.stdin.write(`Content-Length: ${body.length}\r\n\r\n`)
        this.proc.stdin.write(body)
    }

    request(method: string, params: unknown, timeoutMs = 10000): Promise<unknown> {
        const id = this.nextId++
        return new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`${method} timed out; stderr: ${this.stderr.join('')}`)), timeoutMs)
            this.waiting.set(id, msg => {
                clearTimeout(timer)
                if (msg.error !== undefined) reject(new Error(`${method}: ${JSON.stringify(msg.error)}`))
                else resolve(msg.result)
            })
            this.write({ jsonrpc: '2.0', id, method, params })
        })
    }

    notify(method: string, params: unknown): void {
        this.write({ jsonrpc: '2.0', method, params })
    }
}

function setupProject(): { root: string; project: string; shim: string; elan: string } {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lean-assess-proxy-'))
    const project = path.join(root, 'project')
    fs.mkdirSync(project)
    fs.writeFileSync(path.join(project, 'lakefile.toml'), 'name = "demo"\n')
    // Same theorem name, no directive and no lean-assess.toml: only the settings can pair them.
    fs.writeFileSync(path.join(project, 'Reference.lean'), 'theorem foo (x : ℕ) (h : x < 3) : x < 5 := by\n  sorry\n')
    fs.writeFileSync(path.join(project, 'Auto.lean'), 'theorem foo (x : ℕ) (h : x ≤ 3) : x < 5 := by\n  sorry\n')
    const elan = path.join(root, 'elan-bin')
    fs.mkdirSync(elan)
    fs.writeFileSync(path.join(elan, 'lake'), `#!/bin/sh\n[ "$1" = serve ] || exit 2\nexec '${standin}'\n`)
    fs.chmodSync(path.join(elan, 'lake'), 0o755)
    return { root, project, shim: path.join(root, 'shim'), elan }
}

/** Start `lake serve -- <project>` as vscode-lean4 does, open Auto.lean, poll its lenses. */
async function lensesWith(env: NodeJS.ProcessEnv, p: ReturnType<typeof setupProject>, waitMs: number): Promise<{ titles: string[]; commands: string[]; ms: number }> {
    const started = Date.now()
    const proc = spawn('lake', ['serve', '--', p.project], { cwd: p.project, env })
    const client = new Client(proc)
    try {
        const init = (await client.request('initialize', {
            processId: process.pid,
            rootUri: `file://${p.project}`,
            capabilities: { workspace: { codeLens: { refreshSupport: true } } },
            initializationOptions: { hasWidgets: true },
        })) as { capabilities: { codeLensProvider?: unknown; executeCommandProvider?: { commands: string[] } } }
        assert.ok(init.capabilities.codeLensProvider, 'codeLensProvider')
        client.notify('initialized', {})
        const uri = `file://${path.join(p.project, 'Auto.lean')}`
        client.notify('textDocument/didOpen', {
            textDocument: { uri, languageId: 'lean4', version: 1, text: fs.readFileSync(path.join(p.project, 'Auto.lean'), 'utf8') },
        })
        let titles: string[] = []
        const deadline = Date.now() + waitMs
        while (Date.now() < deadline) {
            const lenses = ((await client.request('textDocument/codeLens', { textDocument: { uri } })) ?? []) as { command?: { title: string } }[]
            titles = lenses.map(l => l.command?.title ?? '')
            if (titles.some(t => /\bted \d/.test(t)) && !titles.some(t => /running|pending/.test(t))) break
            await new Promise(r => setTimeout(r, 100))
        }
        await client.request('shutdown', null)
        client.notify('exit', null)
        return { titles, commands: init.capabilities.executeCommandProvider?.commands ?? [], ms: Date.now() - started }
    } finally {
        setTimeout(() => proc.kill(), 2000).unref()
    }
}

test('settings → LEAN_ASSESS_CONFIG reach the proxy started as the Lean 4 extension starts lake', async t => {
    // Not a skip: editors/vscode/test.sh builds the binaries and sets their variables.
    const why = missing()
    if (why !== undefined) {
        assert.fail(why)
    }
    const p = setupProject()
    await installShim(bin!, p.shim, process.platform)
    const configFile = path.join(p.root, 'storage', 'lean-assess.toml')
    fs.mkdirSync(path.dirname(configFile))
    const settings = readSettings(k => ({ 'reference.file': 'Reference.lean', 'metrics.lens': ['ted'] } as Record<string, unknown>)[k])
    fs.writeFileSync(configFile, renderConfig(settings, p.project))
    const PATH = [p.shim, p.elan, process.env.PATH].join(path.delimiter)

    const withSettings = await lensesWith({ ...process.env, PATH, LEAN_ASSESS_CONFIG: configFile }, p, 8000)
    t.diagnostic(`lens with the settings: ${JSON.stringify(withSettings.titles)} after ${withSettings.ms} ms`)
    assert.equal(withSettings.titles.length, 1, `one lens: ${JSON.stringify(withSettings.titles)}`)
    assert.match(withSettings.titles[0], /\bted \d\.\d\d\b/, 'lens shows ted with a value')
    assert.doesNotMatch(withSettings.titles[0], /transted/, 'only the metrics the setting lists')
    assert.ok(withSettings.commands.some(c => c.startsWith('lean-assess.')), `proxy commands: ${withSettings.commands}`)

    // Control: the same start without the variable finds no reference for `foo`, so no ted lens
    // (given several times as long as the lens took to appear above, and at least 2 s).
    const env: NodeJS.ProcessEnv = { ...process.env, PATH }
    delete env.LEAN_ASSESS_CONFIG
    const without = await lensesWith(env, p, Math.max(2000, 5 * withSettings.ms))
    t.diagnostic(`lenses without them: ${JSON.stringify(without.titles)}`)
    assert.ok(!without.titles.some(t => /\bted \d/.test(t)), `no ted lens without the settings: ${JSON.stringify(without.titles)}`)

    // Settings that set only `[metrics]` layer over the project's lean-assess.toml (its
    // `[reference]` stays): replacing it would drop every lens.
    fs.writeFileSync(path.join(p.project, 'lean-assess.toml'), '[reference]\nfile = "Reference.lean"\n')
    fs.writeFileSync(configFile, renderConfig(readSettings(k => ({ 'metrics.lens': ['ted'] } as Record<string, unknown>)[k]), p.project))
    const layered = await lensesWith({ ...process.env, PATH, LEAN_ASSESS_CONFIG: configFile }, p, 8000)
    t.diagnostic(`lens with project file + settings: ${JSON.stringify(layered.titles)}`)
    assert.ok(layered.titles.some(t => /\bted \d/.test(t)), `the project's reference still applies: ${JSON.stringify(layered.titles)}`)
    assert.ok(!layered.titles.some(t => /transted/.test(t)), `the settings' lens list applies: ${JSON.stringify(layered.titles)}`)
    fs.rmSync(path.join(p.project, 'lean-assess.toml'))
})
