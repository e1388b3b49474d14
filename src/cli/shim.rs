//! The `lake` shim: `lean-assess shim [DIR]` installs it; invoked as `lake` it dispatches.
//!
//! Owns: installing `DIR/lake` as a symlink to this binary and printing the editor settings
//! that put DIR on the Lean server's PATH (VS Code `lean4.envPathExtensions`, lean.nvim
//! `cmd_env`; see editors-and-peers-research.md A3); and, when this binary runs under the name
//! `lake`: `lake [+toolchain] serve …` runs the proxy in front of the real `lake … serve …`,
//! any other `lake …` is handed over (exec) to the real `lake` unchanged — arguments, stdio and
//! exit status. The real `lake` is the first `lake` on PATH that is not this binary (canonical
//! paths compared, so a second symlink or a copy of the shim directory is skipped too), else
//! `~/.elan/bin/lake`. The server gets a PATH without any directory whose `lake` is this
//! binary, so Lean's workers (`lake setup-file`) reach the real lake directly.

use anyhow::{bail, Context};
use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Directory for the shim (default: $XDG_DATA_HOME/lean-assess/shim or
    /// ~/.local/share/lean-assess/shim).
    #[arg(value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Is this process running as the shim (argv[0]'s file name is `lake`)?
pub fn invoked_as_lake(argv0: Option<&OsStr>) -> bool {
    argv0
        .and_then(|a| Path::new(a).file_name())
        .is_some_and(|name| name == "lake")
}

/// `lean-assess shim [DIR]`.
pub fn run(args: Args, out: &mut dyn Write) -> anyhow::Result<()> {
    let dir = match args.dir {
        Some(d) => d,
        None => default_dir().context("cannot find a home directory; give DIR")?,
    };
    let exe = std::env::current_exe().context("cannot locate this binary")?;
    let exe = exe.canonicalize().unwrap_or(exe);
    install(&dir, &exe)?;
    let dir = dir.canonicalize().unwrap_or(dir);
    write!(out, "{}", settings_text(&dir, &exe))?;
    Ok(())
}

fn default_dir() -> Option<PathBuf> {
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))?;
    Some(data.join("lean-assess").join("shim"))
}

/// Create `dir/lake` → `exe`. An existing symlink is replaced; any other file is left alone.
pub fn install(dir: &Path, exe: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the shim directory {}", dir.display()))?;
    let link = dir.join("lake");
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
    Ok(())
}

/// What the user puts in each editor's settings.
pub fn settings_text(dir: &Path, exe: &Path) -> String {
    let d = dir.display();
    format!(
        "Installed {d}/lake -> {exe}\n\
         \n\
         VS Code (Lean 4 extension), in settings.json:\n\
         \x20 \"lean4.envPathExtensions\": [\"{d}\"]\n\
         \n\
         Neovim (lean.nvim), in your config:\n\
         \x20 vim.lsp.config('leanls', {{ cmd_env = {{ PATH = '{d}:' .. vim.env.PATH }} }})\n\
         \n\
         Then restart the Lean server. `lake serve` now runs through lean-assess; every other\n\
         `lake` command goes to the real lake unchanged.\n\
         \n\
         The plugins in editors/ do all of this for you: the VS Code extension asks before it\n\
         sets lean4.envPathExtensions; in Neovim, `require('lean_assess').setup{{}}`.\n",
        exe = exe.display()
    )
}

/// The real `lake` and the PATH without the shim's directories.
#[derive(Debug, Clone, PartialEq)]
pub struct RealLake {
    pub path: PathBuf,
    pub path_env: OsString,
}

/// Search `path_env` for a `lake` that is not `me`, then `home/.elan/bin/lake`.
pub fn find_real_lake(path_env: &OsStr, me: &Path, home: Option<&Path>) -> Option<RealLake> {
    let me = me.canonicalize().unwrap_or_else(|_| me.to_path_buf());
    let is_me = |candidate: &Path| candidate.canonicalize().is_ok_and(|c| c == me);
    let mut kept = Vec::new();
    let mut found = None;
    for dir in std::env::split_paths(path_env) {
        let candidate = dir.join("lake");
        if is_me(&candidate) {
            continue;
        }
        if found.is_none() && is_executable(&candidate) {
            found = Some(candidate);
        }
        kept.push(dir);
    }
    let found = found.or_else(|| {
        let elan = home?.join(".elan/bin/lake");
        (is_executable(&elan) && !is_me(&elan)).then_some(elan)
    })?;
    Some(RealLake {
        path: found,
        path_env: std::env::join_paths(kept).unwrap_or_default(),
    })
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Where `serve` sits in lake's arguments: `serve …` or `+toolchain serve …`.
pub fn is_serve(args: &[OsString]) -> bool {
    args.iter()
        .find(|a| !a.to_string_lossy().starts_with('+'))
        .is_some_and(|a| a == "serve")
}

/// This binary invoked as `lake`: proxy `lake serve`, hand everything else over.
pub fn run_as_lake(argv: Vec<OsString>, err: &mut dyn Write) -> ExitCode {
    let args: Vec<OsString> = argv.into_iter().skip(1).collect();
    let me = std::env::current_exe().unwrap_or_default();
    let path_env = std::env::var_os("PATH").unwrap_or_default();
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let real = find_real_lake(&path_env, &me, home.as_deref());
    if is_serve(&args) {
        let Some(real) = real else {
            // Still speak LSP: `serve` reports the spawn failure to the editor.
            let options = super::serve::ServeOptions::from_args(super::serve::Args {
                config: None,
                log: None,
                server: vec!["lake (no real `lake` on PATH besides the lean-assess shim, nor in ~/.elan/bin)".into()],
            });
            let _ = writeln!(err, "lean-assess: error: no real `lake` found on PATH (without the lean-assess shim) or in ~/.elan/bin");
            return super::serve::serve(options).unwrap_or(ExitCode::from(1));
        };
        let mut server = vec![real.path.to_string_lossy().into_owned()];
        server.extend(args.iter().map(|a| a.to_string_lossy().into_owned()));
        let mut options = super::serve::ServeOptions::from_args(super::serve::Args {
            config: None,
            log: None,
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
    let Some(real) = real else {
        let _ = writeln!(
            err,
            "lean-assess: error: no real `lake` found on PATH (without the lean-assess shim) or in ~/.elan/bin"
        );
        return ExitCode::from(127);
    };
    use std::os::unix::process::CommandExt;
    // exec only returns on failure; on success the real lake owns stdio and the exit status.
    let e = std::process::Command::new(&real.path)
        .arg0("lake")
        .args(&args)
        .exec();
    let _ = writeln!(
        err,
        "lean-assess: error: cannot run {}: {e}",
        real.path.display()
    );
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
    fn finds_the_real_lake_skipping_the_shim() {
        let tmp = tempfile::tempdir().expect("tmp");
        let me = fake_lake(&tmp.path().join("bin-me")).with_file_name("lean-assess");
        std::fs::write(&me, "").expect("me");
        let shim = tmp.path().join("shim");
        install(&shim, &me).expect("install");
        let real = fake_lake(&tmp.path().join("real"));
        let path = std::env::join_paths([shim.clone(), tmp.path().join("real")]).expect("join");
        let found = find_real_lake(&path, &me, None).expect("found");
        assert_eq!(found.path, real);
        assert_eq!(
            std::env::split_paths(&found.path_env).collect::<Vec<_>>(),
            [tmp.path().join("real")]
        );
        // Only the shim on PATH and no elan: nothing.
        assert_eq!(
            find_real_lake(shim.as_os_str(), &me, Some(tmp.path())),
            None
        );
        // elan fallback.
        let elan = fake_lake(&tmp.path().join(".elan/bin"));
        assert_eq!(
            find_real_lake(shim.as_os_str(), &me, Some(tmp.path())).map(|r| r.path),
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
        assert_eq!(
            std::fs::read_link(tmp.path().join("lake")).expect("link"),
            exe
        );
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
        assert!(invoked_as_lake(Some(OsStr::new(
            "/home/u/.local/share/lean-assess/shim/lake"
        ))));
        assert!(!invoked_as_lake(Some(OsStr::new("lean-assess"))));
    }
}
