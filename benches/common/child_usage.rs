//! Peak memory of a child process, for the benches that measure the CLI in a process of its
//! own (`limits`, `transted_lite`): run as `BENCH --measure CMD ARGS...`, the bench runs CMD
//! and prints its exit code and peak RSS in KiB (`getrusage(RUSAGE_CHILDREN)`).

use std::io::Write;
use std::process::{Command, Stdio};

#[repr(C)]
struct Timeval {
    sec: i64,
    usec: i64,
}

/// `struct rusage` of Linux (x86-64 and aarch64): two timevals, then 14 longs.
#[repr(C)]
struct Rusage {
    utime: Timeval,
    stime: Timeval,
    maxrss: i64,
    rest: [i64; 13],
}

extern "C" {
    fn getrusage(who: i32, usage: *mut Rusage) -> i32;
}

const RUSAGE_CHILDREN: i32 = -1;

/// Wrapper mode: run the command, then print its exit code and peak RSS in KiB.
pub fn measure(cmd: &[String]) -> ! {
    let status = Command::new(&cmd[0])
        .args(&cmd[1..])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("run the measured command");
    let mut usage = Rusage {
        utime: Timeval { sec: 0, usec: 0 },
        stime: Timeval { sec: 0, usec: 0 },
        maxrss: 0,
        rest: [0; 13],
    };
    // SAFETY: `usage` is a valid, writable `struct rusage` for the duration of the call.
    let rc = unsafe { getrusage(RUSAGE_CHILDREN, &mut usage) };
    assert_eq!(rc, 0, "getrusage failed");
    let code = status.code().map_or_else(|| format!("{status}"), |c| c.to_string());
    let _ = writeln!(std::io::stdout(), "{code} {}", usage.maxrss);
    std::process::exit(0)
}
