//! Peak memory of a solve, the way the thesis' Table 6.3 needs it.
//!
//! Two measurements:
//! - [`solve_in_child`] runs one solve in a child process (`lifesearch cnf
//!   __solve FILE --solver S`) and takes the child's maximum resident set size
//!   as the child itself reports it (`VmHWM`), so C and C++ solvers are
//!   measured too; `wait4` is the fallback. The number includes
//!   the child's own baseline (the `lifesearch` binary, a few MB): measure an
//!   empty formula with the same solver and subtract it to get the solver's share.
//! - [`CountingAlloc`] is a global allocator that counts live heap bytes and
//!   their peak. A binary that installs it (`#[global_allocator] static A:
//!   CountingAlloc = CountingAlloc;`) can read the in-process peak of a Rust
//!   solver (batsat, varisat) with [`reset_peak`] and [`peak_bytes`]. It cannot
//!   see the C/C++ solvers, which allocate with `malloc` directly.
//!
//! Book: Part II, chapter 6, section 6.1.1, Table 6.3 (`book/src/thesis/ch6.md`).

use crate::cnf::solver::{Outcome, SolverKind, SolverStats};
use crate::error::{Error, Result};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};

// ANCHOR: child_solve
/// What one solve in a child process reported.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct ChildSolve {
    pub outcome: Outcome,
    /// Solve time inside the child, without start-up and reading the file.
    pub millis: f64,
    /// The child's maximum resident set size in bytes (whole process).
    pub max_rss_bytes: u64,
    pub stats: SolverStats,
}

/// Solve the DIMACS (or iCNF) file `cnf` with `solver` in a child process
/// started from the executable `exe` (a `lifesearch` binary), and measure it.
pub fn solve_in_child(exe: &Path, cnf: &Path, solver: SolverKind) -> Result<ChildSolve> {
    let mut child = Command::new(exe)
        .arg("cnf")
        .arg("__solve")
        .arg(cnf)
        .arg("--solver")
        .arg(solver.name())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Error::io(exe, e))?;
    let mut out = String::new();
    let mut err = String::new();
    if let Some(mut s) = child.stdout.take() {
        s.read_to_string(&mut out).map_err(|e| Error::io(exe, e))?;
    }
    if let Some(mut s) = child.stderr.take() {
        s.read_to_string(&mut err).map_err(|e| Error::io(exe, e))?;
    }
    let (status, max_rss_bytes) = wait_with_rusage(child.id())?;
    if status != 0 {
        return Err(Error::invalid(format!(
            "solver child exited with status {status}: {}",
            err.lines().next().unwrap_or("")
        )));
    }
    let mut r: ChildSolve = serde_json::from_str(out.trim())
        .map_err(|e| Error::invalid(format!("solver child printed something unexpected: {e}")))?;
    if r.max_rss_bytes == 0 {
        r.max_rss_bytes = max_rss_bytes;
    }
    Ok(r)
}

/// This process's own peak resident set size in bytes (`VmHWM` in
/// `/proc/self/status`), or 0 where that is not available.
///
/// Why not trust `wait4` alone: a child started with `vfork` (which is what
/// `posix_spawn`, and so `Command::spawn`, uses) shares its parent's memory
/// until `exec`, and Linux folds that memory's high-water mark into the
/// child's `ru_maxrss` at `exec`. A small solve then reports the *parent's*
/// size, and two solves of different sizes report the same number.
pub fn own_peak_rss() -> u64 {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else { return 0 };
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kib| kib * 1024)
}
// ANCHOR_END: child_solve

// ANCHOR: wait4
/// Reap child `pid` and return its exit status and maximum RSS in bytes.
/// `wait4` reports the resources of exactly this child, unlike
/// `getrusage(RUSAGE_CHILDREN)`, which keeps the maximum over all children.
fn wait_with_rusage(pid: u32) -> Result<(i32, u64)> {
    let mut status: libc::c_int = 0;
    // SAFETY: an all-zero rusage is a valid value for this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: both pointers point to live locals of the right types.
        let r = unsafe { libc::wait4(pid as libc::pid_t, &mut status, 0, &mut usage) };
        if r == pid as libc::pid_t {
            break;
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(Error::invalid(format!("wait4 failed: {e}")));
        }
    }
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { -1 };
    // Linux reports ru_maxrss in kilobytes.
    Ok((code, usage.ru_maxrss.max(0) as u64 * 1024))
}
// ANCHOR_END: wait4

// ANCHOR: counting_alloc
thread_local! {
    // Per thread, so a measurement sees only the calling thread's solver and
    // not, say, another test freeing its buffers meanwhile. Signed: a thread
    // may free what another allocated. Const-initialised cells without a
    // destructor, so the allocator may touch them at any time.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

/// Add `delta` bytes to this thread's live count and raise its peak.
fn account(delta: isize) {
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

/// The system allocator, counting each thread's live bytes and their peak.
pub struct CountingAlloc;

unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            account(layout.size() as isize);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) };
        account(-(layout.size() as isize));
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            account(new_size as isize - layout.size() as isize);
        }
        p
    }
}

/// This thread's heap bytes live now (0 unless [`CountingAlloc`] is the global allocator).
pub fn live_bytes() -> isize {
    LIVE.with(Cell::get)
}
/// The peak of [`live_bytes`] since the last [`reset_peak`].
pub fn peak_bytes() -> isize {
    PEAK.with(Cell::get)
}
/// Start a new peak measurement from the current live bytes.
pub fn reset_peak() {
    PEAK.with(|p| p.set(live_bytes()));
}
// ANCHOR_END: counting_alloc
