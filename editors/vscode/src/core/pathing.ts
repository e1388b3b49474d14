// PATH handling for the `lake` shim: finding executables and putting the shim directory first in
// `lean4.envPathExtensions`. Pure functions (no VS Code, no process state) so the unit tests can
// run them on plain values; extension.ts feeds them the real environment.
import * as fs from 'fs'
import * as path from 'path'

/** The path-list separator for a platform (`;` on Windows, `:` elsewhere). */
export function pathSeparator(platform: NodeJS.Platform): string {
    return platform === 'win32' ? ';' : ':'
}

/** File names an executable called `name` may have on a platform (Windows tries PATHEXT-style suffixes). */
export function executableNames(name: string, platform: NodeJS.Platform): string[] {
    if (platform !== 'win32' || path.extname(name) !== '') return [name]
    return [name + '.exe', name + '.cmd', name]
}

/** Whether `file` is an executable regular file (symlinks followed). */
export function isExecutableFile(file: string): boolean {
    try {
        const st = fs.statSync(file)
        if (!st.isFile()) return false
        if (process.platform === 'win32') return true
        fs.accessSync(file, fs.constants.X_OK)
        return true
    } catch {
        return false
    }
}

/**
 * Find `name` the way a shell does: an absolute or relative path containing a separator is taken
 * as is; a bare name is looked up in each PATH entry in order. Returns the first executable match.
 */
export function findExecutable(
    name: string,
    envPath: string | undefined,
    platform: NodeJS.Platform,
    isExecutable: (file: string) => boolean = isExecutableFile,
): string | undefined {
    if (name === '') return undefined
    if (name.includes('/') || (platform === 'win32' && name.includes('\\'))) {
        return isExecutable(name) ? name : undefined
    }
    for (const dir of (envPath ?? '').split(pathSeparator(platform))) {
        if (dir === '') continue // an empty PATH entry means cwd, which an extension host must not trust
        for (const candidate of executableNames(name, platform)) {
            const full = path.join(dir, candidate)
            if (isExecutable(full)) return full
        }
    }
    return undefined
}

/** Path equality for settings entries: trailing separators ignored (`/a/b/` is `/a/b`). */
export function samePath(a: string, b: string): boolean {
    const norm = (p: string) => (p.length > 1 ? p.replace(/[\\/]+$/, '') : p)
    return norm(a) === norm(b)
}

/** True when `shimDir` is already the first entry, so the shim's `lake` wins over every other. */
export function shimIsFirst(extensions: readonly string[], shimDir: string): boolean {
    return extensions.length > 0 && samePath(extensions[0], shimDir)
}

/**
 * The `lean4.envPathExtensions` value with `shimDir` first and every other entry kept in order
 * (a previous copy of `shimDir` further down is removed, so the list never grows on re-runs).
 */
export function withShimFirst(extensions: readonly string[], shimDir: string): string[] {
    return [shimDir, ...extensions.filter(e => !samePath(e, shimDir))]
}

/** The `lean4.envPathExtensions` value with `shimDir` removed (for the "remove shim" command). */
export function withoutShim(extensions: readonly string[], shimDir: string): string[] {
    return extensions.filter(e => !samePath(e, shimDir))
}
