// The real-VS-Code test's driver: code-server (a real VS Code workbench and extension host) with
// the lean-assess extension and the Lean 4 extension (the real vscode-lean4, or where it is not at
// hand the test-only imitation in lean4-client/; REALHOST_CLIENT says which), a project whose
// Lean server is the Lean stand-in behind the real shim and proxy, driven by Debian's chromium
// through playwright-core. Asserts on the workbench's DOM text and on the server starts the fake
// `lake` records (REALHOST_STARTS), and saves screenshots of the lens, the hover, the "Show
// differences" squiggles and the proof-path view. Checks: lens, hover, each of the three code
// actions from VS Code's Quick Fix menu, the restart through "Lean 4: Server: Restart Server" and
// through lean-assess's own command, and a window reload that starts Lean once. Run by run.sh,
// which prepares everything and passes paths in the environment. Exit 0 only if every check
// passed.
'use strict'
const { spawn, execFileSync } = require('child_process')
const fs = require('fs')
const net = require('net')
const path = require('path')
const { chromium } = require('playwright-core')

const env = name => {
    const v = process.env[name]
    if (!v) throw new Error(`drive.js: ${name} is not set (run realhost/run.sh)`)
    return v
}
const CODE_SERVER = env('REALHOST_CODE_SERVER')
const NODE = env('REALHOST_NODE')
const CHROMIUM = env('REALHOST_CHROMIUM')
const WORK = env('REALHOST_WORK')
const PROJECT = env('REALHOST_PROJECT')
const SHOTS = env('REALHOST_SCREENSHOTS')
const STARTS = env('REALHOST_STARTS')
const CLIENT = env('REALHOST_CLIENT')
// The real command's palette title (vscode-lean4 package.json: category "Lean 4: Server").
const LEAN_RESTART = 'Lean 4: Server: Restart Server'
const STEP_MS = 45000

const results = []
function check(name, ok, detail) {
    results.push({ name, ok })
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`)
}

function freePort() {
    return new Promise((resolve, reject) => {
        const s = net.createServer()
        s.listen(0, '127.0.0.1', () => {
            const { port } = s.address()
            s.close(() => resolve(port))
        })
        s.on('error', reject)
    })
}

async function waitHttp(url, ms) {
    const deadline = Date.now() + ms
    while (Date.now() < deadline) {
        try {
            const r = await fetch(url)
            if (r.status < 500) return
        } catch {}
        await new Promise(r => setTimeout(r, 250))
    }
    throw new Error(`code-server did not answer at ${url} within ${ms} ms`)
}

async function palette(page, command) {
    const input = page.locator('.quick-input-widget input')
    for (const key of ['F1', 'Control+Shift+P', 'F1']) {
        await page.keyboard.press(key)
        if (await input.waitFor({ state: 'visible', timeout: 5000 }).then(() => true, () => false)) break
    }
    await input.waitFor({ state: 'visible', timeout: STEP_MS })
    await input.fill(`>${command}`)
    await page.locator('.quick-input-list .monaco-list-row', { hasText: command }).first().waitFor({ timeout: STEP_MS })
    await page.keyboard.press('Enter')
}

async function openFile(page, name) {
    // Through the Explorer (a double click opens a pinned editor), as a user does.
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first()
    await row.waitFor({ timeout: STEP_MS })
    await row.dblclick()
    await page.locator('.tab.active', { hasText: name }).waitFor({ timeout: STEP_MS })
}

/** Server starts recorded by the fake `lake`/`lean` (one line each). */
function starts() {
    return fs.readFileSync(STARTS, 'utf8').split('\n').filter(l => l.trim() !== '')
}

/** Wait until at least `n` starts are recorded (or the step times out), then a little longer so a
 * second start close behind is counted too. */
async function startsReach(page, n, settleMs = 3000) {
    const deadline = Date.now() + STEP_MS
    while (Date.now() < deadline && starts().length < n) await page.waitForTimeout(200)
    await page.waitForTimeout(settleMs)
    return starts()
}

/** The settings layers the proxy behind a recorded start read for Auto.lean (its log's
 * `layers=[...]`), once it has read them (within a step); '' for a start not behind the proxy. */
async function layersOf(page, line) {
    const parent = / parent=(\S+) pid=(\d+)/.exec(line || '')
    if (!parent || parent[1] !== 'lake') return ''
    const log = path.join(WORK, 'cache', 'lean-assess', `serve-${parent[2]}.log`)
    const deadline = Date.now() + STEP_MS
    while (Date.now() < deadline) {
        const text = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : ''
        const m = /config for \S*Auto\.lean: .* layers=(\[.*\])/.exec(text)
        if (m) return m[1]
        await page.waitForTimeout(250)
    }
    return `(no layers in ${log})`
}

/** The extension host's log lines (all windows so far). */
function exthostLog() {
    const out = []
    const walk = dir => {
        for (const e of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
            const p = path.join(dir, e.name)
            if (e.isDirectory()) walk(p)
            else if (/exthost.*\.log$/.test(e.name) || (e.name === 'exthost.log')) out.push(...fs.readFileSync(p, 'utf8').split('\n'))
        }
    }
    walk(path.join(WORK, 'user-data', 'logs'))
    return out
}

/** A screenshot for the README, without toasts over it (the checks have read them already). */
async function shot(page, name) {
    await palette(page, 'Notifications: Clear All Notifications').catch(() => {})
    await page.waitForTimeout(300)
    await page.screenshot({ path: path.join(SHOTS, name) })
}

async function waitLens(page) {
    const lens = page.locator('.codelens-decoration', { hasText: 'lean-assess' }).first()
    let text = ''
    try {
        await lens.waitFor({ timeout: STEP_MS })
        // Wait until no metric is still running.
        const deadline = Date.now() + STEP_MS
        do {
            text = (await lens.innerText()).trim()
            if (!/running|pending/.test(text)) break
            await page.waitForTimeout(300)
        } while (Date.now() < deadline)
    } catch (e) {
        text = `(none: ${e.message.split('\n')[0]})`
    }
    return text
}

/** The cursor on the theorem's name (`theorem f|oo`) in the active editor. */
async function cursorOnName(page) {
    const name = page.locator('.view-lines .view-line span', { hasText: 'theorem foo' }).first()
    await name.click()
    await page.keyboard.press('Home')
    for (let i = 0; i < 9; i++) await page.keyboard.press('ArrowRight')
}

/** Open VS Code's Quick Fix menu (Ctrl+.) at the theorem's name; returns its rows' text. */
async function quickFixMenu(page) {
    await cursorOnName(page)
    await page.keyboard.press('Control+Period')
    const rows = page.locator('.action-widget .monaco-list-row')
    await rows.first().waitFor({ timeout: STEP_MS })
    // The proxy's actions come with Lean's: wait until ours are listed.
    await page.locator('.action-widget .monaco-list-row', { hasText: 'lean-assess' }).first().waitFor({ timeout: STEP_MS })
    // Lean's own actions may arrive later and move the rows: wait until the menu is still for a
    // while, so a click lands on the row it aimed at.
    let last = ''
    let stillSince = Date.now()
    const deadline = Date.now() + STEP_MS
    while (Date.now() < deadline) {
        const now = (await rows.allInnerTexts()).join('|')
        if (now !== last) {
            last = now
            stillSince = Date.now()
        } else if (Date.now() - stillSince > 1000) break
        await page.waitForTimeout(150)
    }
    return (await rows.allInnerTexts()).map(t => t.replace(/\s+/g, ' ').trim())
}

async function quickFix(page, text) {
    await quickFixMenu(page)
    const row = page.locator('.action-widget .monaco-list-row', { hasText: `lean-assess: ${text}` }).first()
    // Keyboard, as VS Code's own menu tests do: move the focus to the row, then Enter.
    await row.hover()
    await page.waitForTimeout(200)
    const focused = await page.locator('.action-widget .monaco-list-row.focused').first().innerText().catch(() => '')
    if (!focused.includes(text)) throw new Error(`Quick Fix: "${text}" is not the focused row (focused: ${focused.replace(/\s+/g, ' ')})`)
    await page.keyboard.press('Enter')
}

async function main() {
    const port = await freePort()
    const userData = path.join(WORK, 'user-data')
    const extensions = path.join(WORK, 'extensions')
    // Its own process group, killed as a whole at the end: extension hosts otherwise outlive it.
    const server = spawn(NODE, [CODE_SERVER, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--user-data-dir', userData, '--extensions-dir', extensions, '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', PROJECT], {
        detached: true,
        stdio: ['ignore', fs.openSync(path.join(WORK, 'code-server.log'), 'a'), fs.openSync(path.join(WORK, 'code-server.log'), 'a')],
        env: process.env,
    })
    let browser
    let failShot = async () => {}
    const started = Date.now()
    try {
        await waitHttp(`http://127.0.0.1:${port}/healthz`, STEP_MS)
        browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] })
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
        await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(PROJECT)}`)
        await page.locator('.monaco-workbench').waitFor({ timeout: STEP_MS })
        await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: STEP_MS })
        failShot = () => page.screenshot({ path: path.join(WORK, 'failure.png') }).catch(() => {})
        check('workbench loads', true, `${Date.now() - started} ms`)

        // First use: lean-assess offers to put its shim in front of Lean, and the
        // status bar says it is inactive until that is answered.
        const offer = page.locator('.notification-toast', { hasText: 'lean-assess: put' })
        const inactive = page.locator('.statusbar-item', { hasText: 'lean-assess: inactive' })
        const offered = await offer.first().waitFor({ timeout: STEP_MS }).then(() => true, () => false)
        const shown = await inactive.first().waitFor({ timeout: STEP_MS }).then(() => true, () => false)
        check('first use: the set-up offer, and "lean-assess: inactive" in the status bar', offered && shown)
        // The toast goes into the bell unanswered (Escape: VS Code's "hide notification toasts";
        // it also does so by itself after a few seconds), then the user opens a Lean file.
        await page.locator('.monaco-workbench').click({ position: { x: 700, y: 400 } })
        await page.keyboard.press('Escape')
        const hidden = await offer.first().waitFor({ state: 'hidden', timeout: STEP_MS }).then(() => true, () => false)
        await page.screenshot({ path: path.join(SHOTS, 'vscode-inactive.png') })
        await openFile(page, 'Auto.lean')
        const again = await offer.first().waitFor({ timeout: STEP_MS }).then(() => true, () => false)
        check('the unanswered offer comes again on the next Lean file', hidden && again, `hidden ${hidden}, offered again ${again}`)
        await offer.first().locator('.monaco-button', { hasText: 'Add and restart Lean' }).click()
        const gone = await inactive.first().waitFor({ state: 'hidden', timeout: STEP_MS }).then(() => true, () => false)
        check('"Add and restart Lean": the status bar item goes', gone)

        await openFile(page, 'Auto.lean')
        const lensText = await waitLens(page)
        // Verdict first (it must survive Neovim's cut end-of-line text), then the figures.
        check('the lens shows above the theorem through shim → proxy → stand-in', /^lean-assess: (≡ equivalent|not shown) · ted \d\.\d\d/.test(lensText), lensText)
        // The server the lens came from: the last one started, through the shim (the fake lake's
        // parent is the proxy, running as `lake`) with the settings layer. (On this first start
        // the shim is installed at lean-assess's activation, so an earlier start may lack it.)
        const first = starts()
        const firstLayers = await layersOf(page, first.at(-1))
        check('Lean runs behind the shim and proxy, with the settings layer', /lean-assess-settings\.toml/.test(firstLayers), `${first.join(' | ')}; layers ${firstLayers}`)
        await shot(page, 'vscode-lens.png')

        // Hover on the theorem's name: Lean's part, then the lean-assess section.
        let hoverText = ''
        try {
            // VS Code's own hover command at the cursor (the stand-in gives no semantic tokens,
            // so the line is one span: no mouse target).
            await cursorOnName(page)
            await palette(page, 'Show or Focus Hover')
            const hover = page.locator('.monaco-hover', { hasText: 'lean-assess' })
            await hover.first().waitFor({ timeout: STEP_MS })
            hoverText = (await hover.first().innerText()).replace(/\s+/g, ' ')
        } catch (e) {
            hoverText = `(none: ${e.message.split('\n')[0]})`
        }
        check('hover shows the lean-assess section', /lean-assess/.test(hoverText) && /reference/.test(hoverText), hoverText.slice(0, 160))
        await page.screenshot({ path: path.join(SHOTS, 'vscode-hover.png') })
        await page.keyboard.press('Escape')

        // The three code actions, as a user finds them: VS Code's Quick Fix menu (Ctrl+.).
        let menu = []
        try {
            menu = await quickFixMenu(page)
        } catch (e) {
            menu = [`(none: ${e.message.split('\n')[0]})`]
        }
        await page.keyboard.press('Escape')
        const titles = ['Show differences', 'Show proof path', 'Use as reference']
        check('the Quick Fix menu lists the three lean-assess actions', titles.every(t => menu.some(m => m.includes(`lean-assess: ${t}`))), menu.join(' | ').slice(0, 300))

        // "Show differences": squiggles from the proxy's diagnostics, and a row in Problems.
        let squiggles = 0
        try {
            await quickFix(page, 'Show differences')
            await page.locator('.squiggly-error, .squiggly-warning, .squiggly-info, .squiggly-hint').first().waitFor({ timeout: STEP_MS })
            squiggles = await page.locator('.squiggly-error, .squiggly-warning, .squiggly-info, .squiggly-hint').count()
        } catch (e) {
            console.log(`    (Show differences: ${e.message.split('\n')[0]})`)
        }
        let problems = ''
        try {
            await palette(page, 'View: Focus Problems')
            const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'reference' }).first()
            await row.waitFor({ timeout: STEP_MS })
            problems = (await row.innerText()).replace(/\s+/g, ' ')
        } catch {}
        check('"Show differences" underlines the differing subterms', squiggles > 0 && /reference/.test(problems), `${squiggles} squiggle(s); problem: ${problems.slice(0, 120)}`)
        await shot(page, 'vscode-differences.png')

        await openFile(page, 'Auto.lean')
        let pathTab = ''
        try {
            await quickFix(page, 'Show proof path')
            const tab = page.locator('.tab.active', { hasText: 'proof-path' })
            await tab.waitFor({ timeout: STEP_MS })
            pathTab = (await tab.innerText()).trim()
        } catch (e) {
            console.log(`    (Show proof path: ${e.message.split('\n')[0]})`)
        }
        check('"Show proof path" opens the proof-path view', pathTab !== '', pathTab)
        await shot(page, 'vscode-proof-path.png')

        // "Use as reference" writes the reference down (a directive above the theorem, or a
        // [[reference.pair]] in lean-assess.toml), through the editor's workspace/applyEdit.
        await openFile(page, 'Auto.lean')
        const tomlBefore = fs.readFileSync(path.join(PROJECT, 'lean-assess.toml'), 'utf8')
        let written = ''
        try {
            await quickFix(page, 'Use as reference')
            // The edit lands in an editor buffer (the directive in Auto.lean, or a pair in
            // lean-assess.toml): save everything, then read the files.
            await page.waitForTimeout(1500)
            await palette(page, 'File: Save All')
            const deadline = Date.now() + STEP_MS
            while (Date.now() < deadline && written === '') {
                const auto = fs.readFileSync(path.join(PROJECT, 'Auto.lean'), 'utf8')
                const toml = fs.readFileSync(path.join(PROJECT, 'lean-assess.toml'), 'utf8')
                if (/@reference/.test(auto)) written = `Auto.lean: ${auto.split('\n').find(l => /@reference/.test(l)).trim()}`
                else if (toml !== tomlBefore && /reference\.pair/.test(toml)) written = `lean-assess.toml: ${toml.trim().split('\n').slice(-3).join(' ')}`
                else await page.waitForTimeout(250)
            }
        } catch (e) {
            written = ''
            console.log(`    (Use as reference: ${e.message.split('\n')[0]})`)
        }
        check('"Use as reference" writes the reference down', written !== '', written)

        // Restart through the real command, with the Lean editor focused: one new server start.
        await openFile(page, 'Auto.lean')
        let n = starts().length
        await palette(page, LEAN_RESTART)
        let now = await startsReach(page, n + 1)
        check(`"${LEAN_RESTART}" with the Lean editor focused starts Lean once`, now.length === n + 1, `${now.length - n} start(s)`)

        // With a Markdown editor in the Lean editor's place, the Lean 4 command has no Lean tab
        // to restart; lean-assess's command brings one forward and restarts its server.
        await openFile(page, 'notes.md')
        n = starts().length
        await palette(page, LEAN_RESTART)
        const refused = await page.locator('.notification-toast', { hasText: 'No focused Lean tab' }).first().waitFor({ timeout: STEP_MS }).then(() => true, () => false)
        await page.waitForTimeout(2000)
        check(`"${LEAN_RESTART}" without a Lean tab in view restarts nothing`, refused && starts().length === n, `${starts().length - n} start(s)`)
        await openFile(page, 'notes.md')
        const illegalBefore = exthostLog().filter(l => /Illegal argument/.test(l)).length
        n = starts().length
        await palette(page, 'lean-assess: Restart the Lean Server of Every Folder')
        now = await startsReach(page, n + 1, 5000)
        const illegal = exthostLog().filter(l => /Illegal argument/.test(l))
        check('lean-assess restart brings a Lean editor forward and its server restarts once', now.length === n + 1, `${now.length - n} start(s)`)
        check('lean-assess restart leaves no "Illegal argument" in the extension host log', illegal.length === illegalBefore, illegal.slice(illegalBefore).join(' | ').slice(0, 300))

        // A window reload: the new extension host starts Lean once, with the settings layer.
        await openFile(page, 'Auto.lean')
        n = starts().length
        await palette(page, 'Developer: Reload Window')
        await page.waitForTimeout(1000)
        await page.locator('.monaco-workbench').waitFor({ timeout: STEP_MS })
        const reloadLens = await waitLens(page)
        now = await startsReach(page, n + 1, 8000)
        const after = now.slice(n)
        check('after a window reload the lens is back', /^lean-assess: /.test(reloadLens), reloadLens)
        const reloadLayers = await layersOf(page, after[0])
        check('a window reload starts Lean once, behind the proxy with the settings layer', after.length === 1 && /lean-assess-settings\.toml/.test(reloadLayers), `${after.join(' | ')}; layers ${reloadLayers}`)
    } catch (e) {
        await failShot()
        throw e
    } finally {
        if (browser) await browser.close().catch(() => {})
        try {
            process.kill(-server.pid, 'SIGTERM')
        } catch {}
        await new Promise(r => setTimeout(r, 1000))
        try {
            process.kill(-server.pid, 'SIGKILL')
        } catch {}
    }
    const failed = results.filter(r => !r.ok).length
    console.log(`realhost: ${results.length - failed} passed, ${failed} failed (${Math.round((Date.now() - started) / 1000)} s)`)
    process.exit(failed === 0 && results.length > 0 ? 0 : 1)
}

main().catch(e => {
    console.error(`realhost: ${e.stack || e}`)
    process.exit(1)
})
