//! The `lake` and `lean` shim: `lean-assess shim [DIR]` installs it; invoked as `lake` or `lean`
//! it dispatches.
//!
//! Owns: installing `DIR/lake` and `DIR/lean` as symlinks to an installed `lean-assess` (the one
//! on PATH or in `~/.cargo/bin`, not a `target/` build that `cargo clean` removes), checking and
//! repairing them (`shim --check`), and printing the editor settings that put DIR on the Lean
//! server's PATH (VS Code `lean4.envPathExtensions`, lean.nvim `cmd_env`; see
//! editors-and-peers-research.md A3). When this binary runs under the name `lake`:
//! `lake [+toolchain] serve …` runs the proxy in front of the real `lake … serve …`; under the
//! name `lean`: `lean [+toolchain] --server …` (what both editors start in a folder without a
//! lakefile) runs the proxy in front of the real `lean --server …`. Any other call is handed
//! over (exec) to the real tool unchanged — arguments, stdio and exit status. The real tool is
//! the first one on PATH that is not this binary (canonical paths compared, so a second symlink
//! or a copy of the shim directory is skipped too), else `~/.elan/bin/<tool>`; a `+toolchain`
//! argument, which only elan's proxies understand, goes to `~/.elan/bin/<tool>` when the real
//! tool is not elan's. The server gets a PATH without any directory whose tool is this binary,
//! so Lean's workers (`lake setup-file`) reach the real lake directly. An editor plugin's settings
//! layer may sit beside the shim ([`SETTINGS_FILE`]): the proxy reads it when LEAN_ASSESS_CONFIG
//! is unset, so a server the editor starts before its plugin has set the variable (VS Code
//! activates the Lean 4 extension first, on every window reload) still gets the settings.

use anyhow::{bail, Context};
use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The tools the shim stands in for.
pub const TOOLS: [&str; 2] = ["lake", "lean"];

/// An editor plugin's settings layer, kept in the shim's directory (the VS Code extension writes
/// it there and also points LEAN_ASSESS_CONFIG at it).
pub const SETTINGS_FILE: &str = "lean-assess-settings.toml";

#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Directory for the shim (default: $XDG_DATA_HOME/lean-assess/shim or
    /// ~/.local/share/lean-assess/shim).
    #[arg(value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Check that DIR/lake and DIR/lean point at an installed lean-assess and repair them when
    /// they do not (exit 1 when that is not possible, saying why).
    #[arg(long)]
    pub check: bool,
}

/// Is this process running as the shim (argv[0]'s file name is `lake` or `lean`)? Which one.
pub fn invoked_as(argv0: Option<&OsStr>) -> Option<&'static str> {
    let name = argv0.and_then(|a| Path::new(a).file_name())?;
    TOOLS.into_iter().find(|t| name == *t)
}

/// `lean-assess shim [DIR] [--check]`.
pub fn run(args: Args, out: &mut dyn Write) -> anyhow::Result<()> {
    let dir = match args.dir {
        Some(d) => d,
        None => default_dir().context("cannot find a home directory; give DIR")?,
    };
    let me = std::env::current_exe().context("cannot locate this binary")?;
    let me = me.canonicalize().unwrap_or(me);
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let path_env = std::env::var_os("PATH").unwrap_or_default();
    let exe = installed_binary(&me, &path_env, home.as_deref());
    if args.check {
        let problems = check(&dir, &exe);
        if problems.is_empty() {
            writeln!(out, "shim ok: {} -> {}", dir.display(), exe.display())?;
        } else {
            for p in &problems {
                writeln!(out, "shim: {p}")?;
            }
            install(&dir, &exe)?;
            let left = check(&dir, &exe);
            if !left.is_empty() {
                bail!("shim in {} still broken: {}", dir.display(), left.join("; "));
            }
            writeln!(out, "repaired: {} -> {}", dir.display(), exe.display())?;
        }
    } else {
        install(&dir, &exe)?;
        let dir = dir.canonicalize().unwrap_or(dir);
        write!(out, "{}", settings_text(&dir, &exe))?;
    }
    if in_build_dir(&exe) {
        writeln!(
            out,
            "warning: {} is a cargo build output; `cargo clean` will break the shim. \
             Install lean-assess (`cargo install --path .`) and run `lean-assess shim --check`.",
            exe.display()
        )?;
    }
    Ok(())
}

fn default_dir() -> Option<PathBuf> {
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))?;
    Some(data.join("lean-assess").join("shim"))
}

/// Whether `exe` lies in a cargo `target/{debug,release}` directory.
pub fn in_build_dir(exe: &Path) -> bool {
    let parts: Vec<_> = exe.components().map(|c| c.as_os_str().to_owned()).collect();
    parts.windows(2).any(|w| w[0] == "target" && (w[1] == "debug" || w[1] == "release"))
}

/// The binary the shim should point at: this one when it is installed; when it is a cargo
/// build output, an installed `lean-assess` (first on PATH outside a `target/`, else
/// `~/.cargo/bin/lean-assess`) if there is one, else this one (with a warning by the caller).
pub fn installed_binary(me: &Path, path_env: &OsStr, home: Option<&Path>) -> PathBuf {
    if !in_build_dir(me) {
        return me.to_path_buf();
    }
    let on_path = std::env::split_paths(path_env).map(|d| d.join("lean-assess"));
    let cargo = home.map(|h| h.join(".cargo/bin/lean-assess"));
    on_path
        .chain(cargo)
        .filter(|c| is_executable(c))
        .map(|c| c.canonicalize().unwrap_or(c))
        .find(|c| !in_build_dir(c))
        .unwrap_or_else(|| me.to_path_buf())
}

/// What is wrong with the shim in `dir` for `exe` (empty: nothing).
pub fn check(dir: &Path, exe: &Path) -> Vec<String> {
    let want = exe.canonicalize().unwrap_or_else(|_| exe.to_path_buf());
    let mut problems = Vec::new();
    for tool in TOOLS {
        let link = dir.join(tool);
        match std::fs::read_link(&link) {
            Err(_) if !link.exists() => problems.push(format!("{} is missing", link.display())),
            Err(_) => problems.push(format!("{} is not a symlink", link.display())),
            Ok(target) => match link.canonicalize() {
                Ok(t) if t == want => {}
                Ok(t) => problems.push(format!(
                    "{} points at {}, not {}",
                    link.display(),
                    t.display(),
                    want.display()
                )),
                Err(_) => problems.push(format!(
                    "{} points at {}, which does not exist (removed by `cargo clean`?)",
                    link.display(),
                    target.display()
                )),
            },
        }
    }
    problems
}

/// Create `dir/lake` and `dir/lean` → `exe`. Existing symlinks are replaced; any other file is
/// left alone (an error).
pub fn install(dir: &Path, exe: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the shim directory {}", dir.display()))?;
    for tool in TOOLS {
        let link = dir.join(tool);
        match std::fs::symlink_metadata(&link) {
            Ok(meta) if meta.file_type().is_symlink() => std::fs::remove_file(&link)
                .with_context(|| format!("cannot replace {}", link.display()))?,
            Ok(_) => bail!(
                "{} exists and is not a symlink; remove it or choose another DIR",
                link.display()
            ),
            Err(_) => {}
        }
        std::os::unix::fs::symlink(exe, &link)
            .with_context(|| format!("cannot create the symlink {}", link.display()))?;
    }
    Ok(())
}

/// What the user puts in each editor's settings.
pub fn settings_text(dir: &Path, exe: &Path) -> String {
    let d = dir.display();
    format!(
        "Installed {d}/lake and {d}/lean -> {exe}\n\
         \n\
         VS Code (Lean 4 extension), in settings.json:\n\
         \x20 \"lean4.envPathExtensions\": [\"{d}\"]\n\
         \n\
         Neovim (lean.nvim), in your config:\n\
         \x20 vim.lsp.config('leanls', {{ cmd_env = {{ PATH = '{d}:' .. vim.env.PATH }} }})\n\
         \n\
         Then restart the Lean server. `lake serve` (a folder with a lakefile) and `lean --server`\n\
         (a folder without one) now run through lean-assess; every other `lake` or `lean` command\n\
         goes to the real tool unchanged. `lean-assess shim --check` checks and repairs the links.\n\
         \n\
         The plugins in editors/ do all of this for you: the VS Code extension asks before it\n\
         sets lean4.envPathExtensions; in Neovim, `require('lean_assess').setup{{}}`.\n",
        exe = exe.display()
    )
}

/// The real tool and the PATH without the shim's directories.
#[derive(Debug, Clone, PartialEq)]
pub struct RealTool {
    pub path: PathBuf,
    pub path_env: OsString,
}

/// Search `path_env` for `tool` that is not `me`, then `home/.elan/bin/<tool>`. The PATH kept
/// drops every directory whose `lake` or `lean` is `me`, and every empty or relative entry.
pub fn find_real(tool: &str, path_env: &OsStr, me: &Path, home: Option<&Path>) -> Option<RealTool> {
    let me = me.canonicalize().unwrap_or_else(|_| me.to_path_buf());
    let is_me = |candidate: &Path| candidate.canonicalize().is_ok_and(|c| c == me);
    let mut kept = Vec::new();
    let mut found = None;
    for dir in std::env::split_paths(path_env) {
        // An empty or relative entry names the working directory (whatever folder the editor
        // started in): a tool found there would run by a bare or relative name, which the exec
        // looks up on PATH again and may find this shim (a loop), or a workspace's own `lake`.
        if !dir.is_absolute() || TOOLS.iter().any(|t| is_me(&dir.join(t))) {
            continue;
        }
        let candidate = dir.join(tool);
        if found.is_none() && is_executable(&candidate) {
            found = Some(candidate);
        }
        kept.push(dir);
    }
    let found = found.or_else(|| {
        let elan = home?.join(".elan/bin").join(tool);
        (is_executable(&elan) && !is_me(&elan)).then_some(elan)
    })?;
    Some(RealTool { path: found, path_env: std::env::join_paths(kept).unwrap_or_default() })
}

/// [`SETTINGS_FILE`] in the shim's own directory — the first directory on `path_env` whose
/// `tool` is `me` — when it is a file.
pub fn settings_beside_shim(tool: &str, path_env: &OsStr, me: &Path) -> Option<PathBuf> {
    let me = me.canonicalize().ok()?;
    let dir = std::env::split_paths(path_env)
        .filter(|d| d.is_absolute())
        .find(|d| d.join(tool).canonicalize().is_ok_and(|c| c == me))?;
    Some(dir.join(SETTINGS_FILE)).filter(|f| f.is_file())
}

/// Whether `path` is one of elan's toolchain proxies (it lives in `~/.elan/bin`, or resolves to
/// the `elan` binary): only those understand `+toolchain`.
pub fn is_elan_proxy(path: &Path, home: Option<&Path>) -> bool {
    let in_elan_bin = home.is_some_and(|h| path.starts_with(h.join(".elan/bin")));
    let resolves_to_elan = path
        .canonicalize()
        .ok()
        .and_then(|c| c.file_name().map(|n| n.to_string_lossy().starts_with("elan")))
        .unwrap_or(false);
    in_elan_bin || resolves_to_elan
}

/// For a `+toolchain` call, the tool to run: `real` when it is elan's proxy, else
/// `~/.elan/bin/<tool>` (an error when there is none: no other tool understands `+toolchain`).
pub fn for_toolchain_arg(
    tool: &str,
    real: RealTool,
    args: &[OsString],
    home: Option<&Path>,
) -> Result<RealTool, String> {
    let has_toolchain = args.first().is_some_and(|a| a.to_string_lossy().starts_with('+'));
    if !has_toolchain || is_elan_proxy(&real.path, home) {
        return Ok(real);
    }
    let elan = home.map(|h| h.join(".elan/bin").join(tool));
    match elan.filter(|e| is_executable(e)) {
        Some(path) => Ok(RealTool { path, ..real }),
        None => Err(format!(
            "`{tool} {}` needs elan (only elan's `{tool}` understands +toolchain), and {} is not elan's; install elan or drop the +toolchain",
            args[0].to_string_lossy(),
            real.path.display()
        )),
    }
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Where `serve` sits in lake's arguments: `serve …` or `+toolchain serve …`.
pub fn is_serve(args: &[OsString]) -> bool {
    args.iter().find(|a| !a.to_string_lossy().starts_with('+')).is_some_and(|a| a == "serve")
}

/// Whether a `lean` call starts Lean's language server (`lean --server`, possibly after
/// `+toolchain` or other options; vscode-lean4 and lean.nvim start `lean --server` in a folder
/// without a lakefile).
pub fn is_lean_server(args: &[OsString]) -> bool {
    args.iter().any(|a| a == "--server")
}

/// This binary invoked as `tool` (`lake` or `lean`): proxy the server call (`lake serve`,
/// `lean --server`), hand everything else over.
pub fn run_as_tool(tool: &str, argv: Vec<OsString>, err: &mut dyn Write) -> ExitCode {
    let args: Vec<OsString> = argv.into_iter().skip(1).collect();
    let me = std::env::current_exe().unwrap_or_default();
    let path_env = std::env::var_os("PATH").unwrap_or_default();
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let not_found =
        format!("no real `{tool}` found on PATH (without the lean-assess shim) or in ~/.elan/bin");
    let real = find_real(tool, &path_env, &me, home.as_deref())
        .map(|r| for_toolchain_arg(tool, r, &args, home.as_deref()));
    let server_call = match tool {
        "lean" => is_lean_server(&args),
        _ => is_serve(&args),
    };
    if server_call {
        let real = match real {
            Some(Ok(r)) => r,
            other => {
                let why = match other {
                    Some(Err(e)) => e,
                    _ => not_found,
                };
                // Still speak LSP: `serve` reports the spawn failure to the editor.
                let options = super::serve::ServeOptions::from_args(super::serve::Args {
                    config: None,
                    log: None,
                    show_config: None,
                    server: vec![format!("{tool} ({why})")],
                });
                let _ = writeln!(err, "lean-assess: error: {why}");
                return super::serve::serve(options).unwrap_or(ExitCode::from(1));
            }
        };
        let mut server = vec![real.path.to_string_lossy().into_owned()];
        server.extend(args.iter().map(|a| a.to_string_lossy().into_owned()));
        let env_config = std::env::var_os(super::serve::CONFIG_ENV).filter(|v| !v.is_empty());
        let mut options = super::serve::ServeOptions::from_args(super::serve::Args {
            config: env_config
                .is_none()
                .then(|| settings_beside_shim(tool, &path_env, &me))
                .flatten(),
            log: None,
            show_config: None,
            server,
        });
        options.server_env = vec![("PATH".into(), real.path_env.to_string_lossy().into_owned())];
        return match super::serve::serve(options) {
            Ok(code) => code,
            Err(e) => {
                let _ = writeln!(err, "lean-assess: error: {}", super::one_line(&e));
                ExitCode::from(1)
            }
        };
    }
    let real = match real {
        Some(Ok(r)) => r,
        Some(Err(e)) => {
            let _ = writeln!(err, "lean-assess: error: {e}");
            return ExitCode::from(127);
        }
        None => {
            let _ = writeln!(err, "lean-assess: error: {not_found}");
            return ExitCode::from(127);
        }
    };
    use std::os::unix::process::CommandExt;
    // exec only returns on failure; on success the real tool owns stdio and the exit status.
    let e = std::process::Command::new(&real.path).arg0(tool).args(&args).exec();
    let _ = writeln!(err, "lean-assess: error: cannot run {}: {e}", real.path.display());
    ExitCode::from(126)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn fake_lake(dir: &Path) -> PathBuf {
        std::fs::create_dir_all(dir).expect("dir");
        let p = dir.join("lake");
        std::fs::write(&p, "#!/bin/sh\nexit 0\n").expect("write");
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        p
    }

    #[test]
    fn the_settings_layer_beside_the_shim_is_found_through_path() {
        let tmp = tempfile::tempdir().expect("tmp");
        let me = tmp.path().join("lean-assess");
        std::fs::write(&me, "").expect("me");
        let other = fake_lake(&tmp.path().join("other"));
        let shim = tmp.path().join("shim");
        std::fs::create_dir_all(&shim).expect("shim dir");
        std::os::unix::fs::symlink(&me, shim.join("lake")).expect("symlink");
        // A settings file beside some other `lake` is not the plugin's.
        std::fs::write(other.with_file_name(SETTINGS_FILE), "").expect("other settings");
        let path = std::env::join_paths([tmp.path().join("other"), shim.clone()]).expect("join");
        assert_eq!(settings_beside_shim("lake", &path, &me), None, "no file beside the shim yet");
        std::fs::write(shim.join(SETTINGS_FILE), "[metrics]\n").expect("settings");
        assert_eq!(settings_beside_shim("lake", &path, &me), Some(shim.join(SETTINGS_FILE)));
        // Only the tool this process runs as counts: no `lean` link in the shim directory here.
        assert_eq!(settings_beside_shim("lean", &path, &me), None);
    }

    #[test]
    fn empty_and_relative_path_entries_are_never_used() {
        let tmp = tempfile::tempdir().expect("tmp");
        let me = tmp.path().join("lean-assess");
        std::fs::write(&me, "").expect("me");
        let real = fake_lake(&tmp.path().join("real"));
        // A `lake` in a folder named relative to the working directory (the crate root here).
        let relative = PathBuf::from(format!("target/shim-relative-{}", std::process::id()));
        fake_lake(&relative);
        let path =
            std::env::join_paths([PathBuf::new(), relative.clone(), tmp.path().join("real")])
                .expect("join");
        let found = find_real("lake", &path, &me, None).expect("found");
        let _ = std::fs::remove_dir_all(&relative);
        assert_eq!(found.path, real);
        assert!(found.path.is_absolute());
        assert_eq!(
            std::env::split_paths(&found.path_env).collect::<Vec<_>>(),
            [tmp.path().join("real")]
        );
    }

    #[test]
    fn finds_the_real_lake_skipping_the_shim() {
        let tmp = tempfile::tempdir().expect("tmp");
        let me = fake_lake(&tmp.path().join("bin-me")).with_file_name("lean-assess");
        std::fs::write(&me, "").expect("me");
        let shim = tmp.path().join("shim");
        install(&shim, &me).expect("install");
        let real = fake_lake(&tmp.path().join("real"));
        let path = std::env::join_paths([shim.clone(), tmp.path().join("real")]).expect("join");
        let found = find_real("lake", &path, &me, None).expect("found");
        assert_eq!(found.path, real);
        assert_eq!(
            std::env::split_paths(&found.path_env).collect::<Vec<_>>(),
            [tmp.path().join("real")]
        );
        // Only the shim on PATH and no elan: nothing.
        assert_eq!(find_real("lake", shim.as_os_str(), &me, Some(tmp.path())), None);
        // elan fallback.
        let elan = fake_lake(&tmp.path().join(".elan/bin"));
        assert_eq!(
            find_real("lake", shim.as_os_str(), &me, Some(tmp.path())).map(|r| r.path),
            Some(elan)
        );
    }

    #[test]
    fn install_replaces_links_but_not_files_and_prints_settings() {
        let tmp = tempfile::tempdir().expect("tmp");
        let exe = tmp.path().join("lean-assess");
        std::fs::write(&exe, "").expect("exe");
        install(tmp.path(), &exe).expect("first");
        install(tmp.path(), &exe).expect("again");
        for tool in TOOLS {
            assert_eq!(std::fs::read_link(tmp.path().join(tool)).expect("link"), exe);
        }
        std::fs::create_dir_all(tmp.path().join("d")).expect("d");
        std::fs::write(tmp.path().join("d/lake"), "real").expect("file");
        assert!(install(&tmp.path().join("d"), &exe).is_err());
        let text = settings_text(Path::new("/x/shim"), &exe);
        assert!(text.contains("\"lean4.envPathExtensions\": [\"/x/shim\"]"));
        assert!(text.contains("cmd_env = { PATH = '/x/shim:' .. vim.env.PATH }"));
    }

    #[test]
    fn serve_detection() {
        let v = |s: &[&str]| s.iter().map(OsString::from).collect::<Vec<_>>();
        assert!(is_serve(&v(&["serve", "--", "/ws"])));
        assert!(is_serve(&v(&["+leanprover/lean4:v4.30.0", "serve"])));
        assert!(!is_serve(&v(&["build"])));
        assert!(!is_serve(&v(&["env", "serve"])));
        assert!(!is_serve(&v(&[])));
        assert_eq!(
            invoked_as(Some(OsStr::new("/home/u/.local/share/lean-assess/shim/lake"))),
            Some("lake")
        );
        assert_eq!(invoked_as(Some(OsStr::new("/x/shim/lean"))), Some("lean"));
        assert_eq!(invoked_as(Some(OsStr::new("lean-assess"))), None);
        // What vscode-lean4 and lean.nvim start in a folder without a lakefile.
        assert!(is_lean_server(&v(&["--server"])));
        assert!(is_lean_server(&v(&["+leanprover/lean4:v4.30.0", "--server"])));
        assert!(!is_lean_server(&v(&["--version"])));
        assert!(!is_lean_server(&v(&["Main.lean"])));
    }

    /// `shim --check` finds a link into a removed build and repairs it; the shim
    /// points at an installed binary rather than a `target/` build when there is one.
    #[test]
    fn check_finds_broken_links_and_installed_binaries_win_over_builds() {
        let tmp = tempfile::tempdir().expect("tmp");
        let build = tmp.path().join("repo/target/release");
        std::fs::create_dir_all(&build).expect("dir");
        let built = build.join("lean-assess");
        std::fs::write(&built, "").expect("exe");
        let shim = tmp.path().join("shim");
        install(&shim, &built).expect("install");
        assert!(check(&shim, &built).is_empty());
        std::fs::remove_file(&built).expect("cargo clean");
        let problems = check(&shim, &built);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].contains("does not exist"), "{problems:?}");
        std::fs::remove_file(shim.join("lean")).expect("rm");
        assert!(check(&shim, &built)[1].contains("missing"));

        assert!(in_build_dir(&built));
        let home = tmp.path().join("home");
        // Nothing installed: the build itself (the caller warns).
        assert_eq!(installed_binary(&built, OsStr::new(""), Some(&home)), built);
        let cargo_bin = fake_lake(&home.join(".cargo/bin")).with_file_name("lean-assess");
        std::fs::write(&cargo_bin, "").expect("exe");
        std::fs::set_permissions(&cargo_bin, std::fs::Permissions::from_mode(0o755))
            .expect("chmod");
        assert_eq!(
            installed_binary(&built, OsStr::new(""), Some(&home)),
            cargo_bin.canonicalize().expect("canon")
        );
        install(&shim, &installed_binary(&built, OsStr::new(""), Some(&home))).expect("repair");
        assert!(check(&shim, &cargo_bin).is_empty());
        // An installed binary is used as it is.
        assert_eq!(installed_binary(&cargo_bin, OsStr::new(""), None), cargo_bin);
    }

    /// `+toolchain` only means something to elan's proxies.
    #[test]
    fn toolchain_arguments_go_through_elan() {
        let tmp = tempfile::tempdir().expect("tmp");
        let v = |s: &[&str]| s.iter().map(OsString::from).collect::<Vec<_>>();
        let home = tmp.path().join("home");
        let plain = RealTool {
            path: fake_lake(&tmp.path().join("usr/bin")),
            path_env: OsString::from("/usr/bin"),
        };
        // No +toolchain: the real lake, whatever it is.
        assert_eq!(
            for_toolchain_arg("lake", plain.clone(), &v(&["serve"]), Some(&home)),
            Ok(plain.clone())
        );
        // +toolchain and no elan: a clear error.
        let e = for_toolchain_arg("lake", plain.clone(), &v(&["+tc", "serve"]), Some(&home))
            .unwrap_err();
        assert!(e.contains("needs elan"), "{e}");
        // +toolchain with elan installed: elan's lake, same PATH.
        let elan = fake_lake(&home.join(".elan/bin"));
        let got = for_toolchain_arg("lake", plain.clone(), &v(&["+tc", "serve"]), Some(&home))
            .expect("elan");
        assert_eq!((got.path, got.path_env), (elan.clone(), plain.path_env.clone()));
        // The real lake already elan's: kept.
        let elans = RealTool { path: elan.clone(), path_env: OsString::new() };
        assert_eq!(
            for_toolchain_arg("lake", elans.clone(), &v(&["+tc", "serve"]), Some(&home)),
            Ok(elans)
        );
    }
}
