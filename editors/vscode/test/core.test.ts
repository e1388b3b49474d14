// Unit tests of the VS Code-free logic: PATH search, envPathExtensions editing, settings → TOML,
// shim state and installation, code action choice. Run with `node --test` (no VS Code download).
import { test } from 'node:test'
import * as assert from 'node:assert/strict'
import * as fs from 'fs'
import * as os from 'os'
import * as path from 'path'
import { execFileSync } from 'child_process'
import { findExecutable, shimIsFirst, withShimFirst, withoutShim, samePath } from '../src/core/pathing'
import { readSettings, renderConfig, hasProxySettings, tomlString, SettingError, absoluteTheoremRef } from '../src/core/config'
import { installShim, shimState, ShimInstallError, shimLakePath } from '../src/core/shim'
import { pickAction, actionSteps } from '../src/core/actions'

function tmpdir(): string {
    return fs.mkdtempSync(path.join(os.tmpdir(), 'lean-assess-vscode-'))
}

function writeExecutable(file: string, body: string): void {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, body)
    fs.chmodSync(file, 0o755)
}

test('findExecutable takes the first executable PATH entry and skips non-executables', () => {
    const root = tmpdir()
    const a = path.join(root, 'a')
    const b = path.join(root, 'b')
    fs.mkdirSync(a)
    fs.writeFileSync(path.join(a, 'lean-assess'), 'not executable') // mode 0644
    writeExecutable(path.join(b, 'lean-assess'), '#!/bin/sh\n')
    const found = findExecutable('lean-assess', [a, '', b].join(':'), 'linux')
    assert.equal(found, path.join(b, 'lean-assess'))
    assert.equal(findExecutable('lean-assess', a, 'linux'), undefined)
    assert.equal(findExecutable('', b, 'linux'), undefined)
})

test('findExecutable uses an explicit path as is, and Windows suffixes and separators', () => {
    const root = tmpdir()
    const bin = path.join(root, 'bin', 'lean-assess')
    writeExecutable(bin, '#!/bin/sh\n')
    assert.equal(findExecutable(bin, '', 'linux'), bin)
    assert.equal(findExecutable(path.join(root, 'nope'), '', 'linux'), undefined)
    const seen: string[] = []
    const exists = (f: string) => {
        seen.push(f)
        return f === path.join('D2', 'lean-assess.exe')
    }
    assert.equal(findExecutable('lean-assess', 'D1;D2', 'win32', exists), path.join('D2', 'lean-assess.exe'))
    assert.deepEqual(seen.slice(0, 3), [path.join('D1', 'lean-assess.exe'), path.join('D1', 'lean-assess.cmd'), path.join('D1', 'lean-assess')])
})

test('withShimFirst puts the shim first once and keeps the other entries in order', () => {
    assert.deepEqual(withShimFirst([], '/s'), ['/s'])
    assert.deepEqual(withShimFirst(['/x', '/y'], '/s'), ['/s', '/x', '/y'])
    assert.deepEqual(withShimFirst(['/x', '/s/', '/y'], '/s'), ['/s', '/x', '/y'])
    assert.deepEqual(withShimFirst(withShimFirst(['/x'], '/s'), '/s'), ['/s', '/x'])
    assert.equal(shimIsFirst(['/s/', '/x'], '/s'), true)
    assert.equal(shimIsFirst(['/x', '/s'], '/s'), false)
    assert.equal(shimIsFirst([], '/s'), false)
    assert.deepEqual(withoutShim(['/x', '/s', '/y', '/s/'], '/s'), ['/x', '/y'])
    assert.equal(samePath('/', '/'), true)
})

test('readSettings drops empty values and hasProxySettings sees any set value', () => {
    const empty = readSettings(() => undefined)
    assert.equal(hasProxySettings(empty), false)
    const blank = readSettings(k => ({ 'reference.file': '  ', 'metrics.lens': [], 'reference.pairs': [], 'llm.samples': null } as Record<string, unknown>)[k])
    assert.equal(hasProxySettings(blank), false)
    const some = readSettings(k => (k === 'metrics.beqTimeoutMs' ? 30000 : undefined))
    assert.equal(hasProxySettings(some), true)
    assert.equal(some.beqTimeoutMs, 30000)
})

test('renderConfig writes the contract format with absolute paths, parsed back by a TOML reader', () => {
    const settings = readSettings(
        k =>
            (({
                'reference.file': 'refs/Reference.lean',
                'reference.dataset': '/data/refs "quoted".jsonl',
                'reference.pairs': [{ candidate: 'Auto.lean::my_favorite_theorem', reference: 'Reference.lean::mathd_algebra_142' }],
                'metrics.lens': ['ted', 'transted', 'beq'],
                'metrics.transtedTimeoutMs': 20000,
                'metrics.beqTimeoutMs': 30000,
                'llm.baseUrl': 'http://127.0.0.1:8000/v1',
                'llm.model': 'internlm2-math-plus-20b',
                'llm.apiKeyEnv': 'OPENAI_API_KEY',
                'llm.samples': 8,
            }) as Record<string, unknown>)[k],
    )
    const text = renderConfig(settings, '/work/project')
    // Python's tomllib (3.11+) is an independent TOML 1.0 reader: the proxy's `toml` crate reads the same language.
    const parsed = JSON.parse(
        execFileSync('python3', ['-c', 'import sys, json\ntry:\n    import tomllib\nexcept ImportError:\n    import tomli as tomllib\nprint(json.dumps(tomllib.loads(sys.stdin.read())))'], { input: text }).toString(),
    )
    assert.deepEqual(parsed, {
        reference: {
            file: '/work/project/refs/Reference.lean',
            dataset: '/data/refs "quoted".jsonl',
            pair: [{ candidate: '/work/project/Auto.lean::my_favorite_theorem', reference: '/work/project/Reference.lean::mathd_algebra_142' }],
        },
        metrics: { lens: ['ted', 'transted', 'beq'], transted_timeout_ms: 20000, beq_timeout_ms: 30000 },
        llm: { base_url: 'http://127.0.0.1:8000/v1', model: 'internlm2-math-plus-20b', api_key_env: 'OPENAI_API_KEY', samples: 8 },
    })
})

test('renderConfig emits only the sections that are set', () => {
    const text = renderConfig(readSettings(k => (k === 'metrics.lens' ? ['ted'] : undefined)), undefined)
    assert.match(text, /^\[metrics\]\nlens = \["ted"\]$/m)
    assert.doesNotMatch(text, /\[reference\]|\[llm\]/)
})

test('renderConfig rejects bad values naming the setting', () => {
    assert.throws(() => renderConfig({ lensMetrics: ['ted', 'bleu'] }, undefined), (e: unknown) => e instanceof SettingError && e.setting === 'metrics.lens' && /bleu/.test(e.message))
    assert.throws(() => renderConfig({ beqTimeoutMs: -5 }, undefined), (e: unknown) => e instanceof SettingError && e.setting === 'metrics.beqTimeoutMs')
    assert.throws(() => renderConfig({ llmSamples: 2.5 }, undefined), (e: unknown) => e instanceof SettingError && e.setting === 'llm.samples')
    assert.throws(
        () => renderConfig({ referencePairs: [{ candidate: 'A.lean::x' } as never] }, undefined),
        (e: unknown) => e instanceof SettingError && e.setting === 'reference.pairs[0]',
    )
})

test('tomlString escapes quotes, backslashes and control characters and keeps Unicode', () => {
    assert.equal(tomlString('a"b\\c'), '"a\\"b\\\\c"')
    assert.equal(tomlString('x\ny\u0001'), '"x\\ny\\u0001"')
    assert.equal(tomlString('ℕ → ∀ x₁'), '"ℕ → ∀ x₁"')
})

test('absoluteTheoremRef resolves the file part only', () => {
    assert.equal(absoluteTheoremRef('A.lean::thm', '/r'), '/r/A.lean::thm')
    assert.equal(absoluteTheoremRef('/abs/A.lean::thm', '/r'), '/abs/A.lean::thm')
    assert.equal(absoluteTheoremRef('A.lean', '/r'), '/r/A.lean')
    assert.equal(absoluteTheoremRef('theorem t : 1 = 1', '/r'), 'theorem t : 1 = 1')
})

// A stand-in for `lean-assess shim DIR` that does what the contract says the real one does
// (DIR/lake → the binary); the real binary is exercised in the next test when it is built.
function fakeBinary(root: string, behaviour: 'link' | 'fail' | 'nothing'): string {
    const bin = path.join(root, 'bin', 'lean-assess')
    const body = {
        link: '#!/bin/sh\n[ "$1" = shim ] || exit 2\nmkdir -p "$2" && ln -sf "$0" "$2/lake" && ln -sf "$0" "$2/lean" && echo "lean4.envPathExtensions: [\\"$2\\"]"\n',
        fail: '#!/bin/sh\necho "cannot write $2" >&2\nexit 3\n',
        nothing: '#!/bin/sh\nexit 0\n',
    }[behaviour]
    writeExecutable(bin, body)
    return bin
}

test('installShim runs `BINARY shim DIR` and checks DIR/lake resolves to the binary', async () => {
    const root = tmpdir()
    const bin = fakeBinary(root, 'link')
    const dir = path.join(root, 'shim')
    assert.equal(shimState(dir, bin, 'linux').kind, 'missing')
    const out = await installShim(bin, dir, 'linux')
    assert.match(out.stdout, /envPathExtensions/)
    assert.equal(shimState(dir, bin, 'linux').kind, 'installed')
    // A lake that is something else (e.g. a stale link) is reported as foreign.
    const other = fakeBinary(path.join(root, 'other'), 'link')
    assert.equal(shimState(dir, other, 'linux').kind, 'foreign')
    assert.equal(shimLakePath(dir, 'win32'), path.join(dir, 'lake.exe'))
    // A shim without `lean` (an older install): reinstalled.
    const old = path.join(root, 'old')
    fs.mkdirSync(old)
    fs.symlinkSync(bin, path.join(old, 'lake'))
    assert.equal(shimState(old, bin, 'linux').kind, 'missing')
})

test('installShim fails with the binary, directory and cause when the command fails or leaves no shim', async () => {
    const root = tmpdir()
    const failing = fakeBinary(path.join(root, 'f'), 'fail')
    await assert.rejects(installShim(failing, path.join(root, 's1'), 'linux'), (e: unknown) => e instanceof ShimInstallError && /cannot write/.test(e.message) && e.binary === failing)
    const silent = fakeBinary(path.join(root, 'n'), 'nothing')
    await assert.rejects(installShim(silent, path.join(root, 's2'), 'linux'), (e: unknown) => e instanceof ShimInstallError && /no .*lake afterwards/.test(e.message))
})

test('installShim against the real lean-assess binary', async () => {
    const real = process.env.LEAN_ASSESS_BIN
    // Not a skip: editors/vscode/test.sh builds the binary and sets LEAN_ASSESS_BIN.
    if (real === undefined || !fs.existsSync(real)) {
        assert.fail('LEAN_ASSESS_BIN is not set to a built lean-assess (editors/vscode/test.sh builds it and sets it)')
    }
    const help = (() => {
        try {
            return execFileSync(real, ['shim', '--help'], { stdio: ['ignore', 'pipe', 'pipe'] }).toString()
        } catch {
            return undefined
        }
    })()
    // clap prints a usage line naming the subcommand.
    assert.ok(help !== undefined && /usage:.*shim/i.test(help), `${real}: \`shim --help\` printed no usage for \`shim\``)
    const dir = path.join(tmpdir(), 'shim')
    const out = await installShim(real, dir, process.platform)
    assert.equal(shimState(dir, real, process.platform).kind, 'installed')
    assert.ok(out.stdout.includes(dir), `\`shim\` output names the directory: ${out.stdout}`)
})

test('pickAction matches proxy action titles case-insensitively, with prefixes', () => {
    const actions = [{ title: 'Try this: simp' }, { title: 'lean-assess: Show differences' }, { title: 'Show proof path' }, { title: 'Use as reference' }]
    assert.equal(pickAction(actions, 'differences')?.title, 'lean-assess: Show differences')
    assert.equal(pickAction(actions, 'proofPath')?.title, 'Show proof path')
    assert.equal(pickAction(actions, 'useAsReference')?.title, 'Use as reference')
    assert.equal(pickAction([{ title: 'Try this: simp' }], 'differences'), undefined)
    assert.equal(pickAction(undefined, 'differences'), undefined)
})

test('actionSteps: edit then command for CodeActions, command for bare Commands', () => {
    assert.deepEqual(actionSteps({ title: 'x', edit: { e: 1 }, command: { title: 'x', command: 'c.1', arguments: [1, 'a'] } }), {
        edit: { e: 1 },
        command: { command: 'c.1', arguments: [1, 'a'] },
    })
    assert.deepEqual(actionSteps({ title: 'x', command: 'c.2' }), { command: { command: 'c.2', arguments: [] } })
    assert.deepEqual(actionSteps({ title: 'x' }), {})
})
