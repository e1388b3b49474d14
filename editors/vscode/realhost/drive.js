// The real-VS-Code test's driver: code-server (a real VS Code workbench and extension host) with
// the lean-assess extension and a test-only Lean 4 client (lean4-client/), a project whose Lean
// server is the Lean stand-in behind the real shim and proxy, driven by Debian's chromium through
// playwright-core. Asserts on the workbench's DOM text and saves screenshots of the lens, the
// hover, the "Show differences" squiggles and the proof-path view; checks the restart behaviour
// (issue 12.2) with VS Code's own focus handling. Run by run.sh, which prepares everything and
// passes paths in the environment. Exit 0 only if every check passed.
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
const RESTARTS = env('LEAN_ASSESS_REALHOST_RESTARTS')
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

        await openFile(page, 'Auto.lean')
        const lens = page.locator('.codelens-decoration', { hasText: 'lean-assess' }).first()
        let lensText = ''
        try {
            await lens.waitFor({ timeout: STEP_MS })
            // Wait until no metric is still running.
            const deadline = Date.now() + STEP_MS
            do {
                lensText = (await lens.innerText()).trim()
                if (!/running|pending/.test(lensText)) break
                await page.waitForTimeout(300)
            } while (Date.now() < deadline)
        } catch (e) {
            lensText = `(none: ${e.message.split('\n')[0]})`
        }
        // Verdict first (it must survive Neovim's cut end-of-line text), then the figures.
        check('the lens shows above the theorem through shim → proxy → stand-in', /^lean-assess: (≡ equivalent|not shown) · ted \d\.\d\d/.test(lensText), lensText)
        await page.screenshot({ path: path.join(SHOTS, 'vscode-lens.png') })

        // Hover on the theorem's name: Lean's part, then the lean-assess section.
        const name = page.locator('.view-lines .view-line span', { hasText: 'foo' }).first()
        let hoverText = ''
        try {
            // The cursor on the theorem's name (`theorem f|oo`), then VS Code's own hover command
            // (the stand-in gives no semantic tokens, so the line is one span: no mouse target).
            await name.click()
            await page.keyboard.press('Home')
            for (let i = 0; i < 9; i++) await page.keyboard.press('ArrowRight')
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

        // "Show differences" at the theorem: squiggles from the proxy's diagnostics.
        await name.click()
        await palette(page, 'lean-assess: Show Differences from the Reference')
        let squiggles = 0
        try {
            await page.locator('.squiggly-error, .squiggly-warning, .squiggly-info, .squiggly-hint').first().waitFor({ timeout: STEP_MS })
            squiggles = await page.locator('.squiggly-error, .squiggly-warning, .squiggly-info, .squiggly-hint').count()
        } catch {}
        let problems = ''
        try {
            await palette(page, 'View: Focus Problems')
            const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'reference' }).first()
            await row.waitFor({ timeout: STEP_MS })
            problems = (await row.innerText()).replace(/\s+/g, ' ')
        } catch {}
        check('"Show differences" underlines the differing subterms', squiggles > 0 && /reference/.test(problems), `${squiggles} squiggle(s); problem: ${problems.slice(0, 120)}`)
        await page.screenshot({ path: path.join(SHOTS, 'vscode-differences.png') })

        await openFile(page, 'Auto.lean')
        await name.click()
        await palette(page, 'lean-assess: Show Proof Path')
        let pathTab = ''
        try {
            const tab = page.locator('.tab.active', { hasText: 'proof-path' })
            await tab.waitFor({ timeout: STEP_MS })
            pathTab = (await tab.innerText()).trim()
        } catch {}
        check('"Show proof path" opens the proof-path view', pathTab !== '', pathTab)
        await page.screenshot({ path: path.join(SHOTS, 'vscode-proof-path.png') })

        // Issue 12.2 in the real workbench: with a non-Lean editor focused, the Lean 4 command
        // restarts nothing; lean-assess's restart brings a Lean editor forward and restarts it.
        await openFile(page, 'notes.md')
        fs.writeFileSync(RESTARTS, '')
        await palette(page, 'Lean 4: Restart Server')
        const refused = await page.locator('.notification-toast', { hasText: 'No focused Lean tab' }).first().waitFor({ timeout: STEP_MS }).then(() => true, () => false)
        check('Lean 4: Restart Server without a focused Lean tab restarts nothing', refused && fs.readFileSync(RESTARTS, 'utf8') === '')
        await openFile(page, 'notes.md')
        await palette(page, 'lean-assess: Restart the Lean Server of Every Folder')
        const deadline = Date.now() + STEP_MS
        while (Date.now() < deadline && !fs.readFileSync(RESTARTS, 'utf8').includes(PROJECT)) await page.waitForTimeout(200)
        check('lean-assess restart brings a Lean editor forward and its server restarts', fs.readFileSync(RESTARTS, 'utf8').includes(PROJECT), fs.readFileSync(RESTARTS, 'utf8').trim())
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
