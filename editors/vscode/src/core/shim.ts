// The shim directory: where it lives, whether it is installed and points at the chosen
// `lean-assess` binary, and how to install it. Installing is delegated to `lean-assess shim DIR`
// (the binary owns the shim's layout: `lake` and `lean` links to itself — `lean` for folders
// without a lakefile, where the Lean 4 extension starts `lean --server`); this module only
// checks the result.
import * as fs from 'fs'
import * as path from 'path'
import { execFile } from 'child_process'

/** The shim's `lake` file inside `dir` for a platform. */
export function shimLakePath(dir: string, platform: NodeJS.Platform): string {
    return shimToolPath(dir, 'lake', platform)
}

/** The tools the shim stands in for. */
export const SHIM_TOOLS = ['lake', 'lean'] as const

/** The shim's file for `tool` inside `dir` for a platform. */
export function shimToolPath(dir: string, tool: string, platform: NodeJS.Platform): string {
    return path.join(dir, platform === 'win32' ? `${tool}.exe` : tool)
}

export type ShimState =
    | { kind: 'installed' }
    | { kind: 'missing'; lake: string }
    | { kind: 'foreign'; lake: string; target: string }

/**
 * Whether `dir` holds a `lake` that resolves to `binary` (both canonicalised, so a symlinked
 * install location or a `..` in a setting compare equal). `foreign` means a `lake` is there but
 * is something else, e.g. a stale link to an older binary: reinstalling fixes it.
 */
export function shimState(dir: string, binary: string, platform: NodeJS.Platform): ShimState {
    let wanted: string
    try {
        wanted = fs.realpathSync(binary)
    } catch {
        wanted = binary
    }
    // Both `lake` (folders with a lakefile) and `lean` (without one) must be there: a shim from
    // an older lean-assess has `lake` only and is reinstalled.
    for (const tool of SHIM_TOOLS) {
        const file = shimToolPath(dir, tool, platform)
        let target: string
        try {
            target = fs.realpathSync(file)
        } catch {
            return { kind: 'missing', lake: file }
        }
        if (target !== wanted) return { kind: 'foreign', lake: file, target }
    }
    return { kind: 'installed' }
}

export interface ShimInstallResult {
    /** What `lean-assess shim DIR` printed: the editor settings that use the shim. */
    stdout: string
    stderr: string
}

/** Error from running `lean-assess shim DIR`, naming the binary, the directory and the output. */
export class ShimInstallError extends Error {
    constructor(
        readonly binary: string,
        readonly dir: string,
        readonly detail: string,
    ) {
        super(`\`${binary} shim ${dir}\` failed: ${detail}`)
        this.name = 'ShimInstallError'
    }
}

/** Run `BINARY shim DIR` (creates DIR/lake → BINARY) and check that it left a working shim. */
export function installShim(
    binary: string,
    dir: string,
    platform: NodeJS.Platform,
    timeoutMs = 15000,
): Promise<ShimInstallResult> {
    return new Promise((resolve, reject) => {
        execFile(binary, ['shim', dir], { timeout: timeoutMs }, (err, stdout, stderr) => {
            if (err) {
                reject(new ShimInstallError(binary, dir, `${err.message}${stderr ? ` (${stderr.trim()})` : ''}`))
                return
            }
            const state = shimState(dir, binary, platform)
            if (state.kind !== 'installed') {
                const what = state.kind === 'missing' ? `no ${state.lake} afterwards` : `${state.lake} points at ${state.target}`
                reject(new ShimInstallError(binary, dir, what))
                return
            }
            resolve({ stdout, stderr })
        })
    })
}
