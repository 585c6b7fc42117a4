//! Peak memory of one SAT solve, measured in a child process, the way the
//! thesis' Table 6.3 needs it: C and C++ solvers allocate with `malloc`
//! directly, so only the operating system sees all of their memory.
//!
//! Both sides of the exchange live here. The parent, [`solve_in_child`], runs a
//! command that the caller names (any binary that hands its arguments to
//! [`serve`]: `lifesearch cnf __solve FILE --solver S`, or the experiments'
//! own `__solve`), so the library knows nothing of any command line. The child,
//! [`serve`], solves the file and reports its own maximum resident set size
//! (`VmHWM`) as one JSON line; `wait4` is the fallback. The number includes the
//! child's own baseline (the binary, a few MB): measure an empty formula with
//! the same solver and subtract it to get the solver's share.
//!
//! Book: Part II, chapter 6, section 6.1.1, Table 6.3 (`book/src/thesis/ch6.md`).

use crate::cnf::backends::new_solver;
use crate::cnf::solver::{Outcome, SolverKind, SolverStats};
use crate::cnf::{IcnfScript, dimacs};
use crate::error::{Error, Location, Result};
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

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

/// The command `exe ARGS... FILE --solver S`, where `ARGS` name the binary's
/// subcommand that hands its file and solver to [`serve`].
pub fn command(exe: &Path, args: &[&str], cnf: &Path, solver: SolverKind) -> Command {
    let mut c = Command::new(exe);
    c.args(args).arg(cnf).arg("--solver").arg(solver.name());
    c
}

/// Run `command`, a child that solves one file through [`serve`] and prints
/// its report, and measure it.
pub fn solve_in_child(mut command: Command) -> Result<ChildSolve> {
    let exe = std::path::PathBuf::from(command.get_program());
    let exe = exe.as_path();
    let mut child =
        command.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().map_err(|e| Error::io(exe, e))?;
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

// ANCHOR: serve
/// The child's side: solve the DIMACS or iCNF file at `path` with `solver`
/// and return the report to print as one JSON line. The clock starts after a
/// DIMACS file is parsed; an iCNF script parses as it runs.
pub fn serve(path: &Path, solver: SolverKind) -> Result<ChildSolve> {
    let text = crate::fsutil::read_text(path)?;
    let loc = Location::file(path);
    let mut s = new_solver(solver)?;
    let is_icnf = text.lines().find(|l| l.starts_with('p')).is_some_and(|l| l.contains("inc"));
    let (outcome, start) = if is_icnf {
        let start = Instant::now();
        let script = IcnfScript::read(&loc, &text)?;
        let outs = script.run(s.as_mut())?;
        // The script's answer: unsat if any call was, else the last one.
        let o = outs
            .iter()
            .copied()
            .find(|&o| o != Outcome::Sat)
            .or(outs.last().copied())
            .unwrap_or(Outcome::Sat);
        (o, start)
    } else {
        let f = dimacs::read(&loc, &text)?;
        let start = Instant::now();
        for c in f.clauses() {
            s.add_clause(c);
        }
        (s.solve()?, start)
    };
    let millis = start.elapsed().as_secs_f64() * 1e3;
    Ok(ChildSolve { outcome, millis, max_rss_bytes: own_peak_rss(), stats: s.stats() })
}
// ANCHOR_END: serve
