//! A flag that stops a running search from another thread, with hooks for
//! solvers that cannot poll it and an alarm that starts a portfolio's second
//! engine. Every engine (SAT backends, GRIDWALKER, the space-time search)
//! takes one; it depends on nothing else in the crate.
//!
//! Book: Part IV, "A GRIDWALKER that never loses badly" (`book/src/beyond/robust.md`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Something to call when a solve must stop.
type Hook = Box<dyn Fn() + Send + Sync>;

/// A flag another thread may raise to stop a running solve (it then returns
/// `Outcome::Unknown`). Backends that cannot poll a flag register a hook
/// that is called on [`Stop::interrupt`] (MiniSat and Glucose: their
/// interrupt then sticks, and later solves also return `Unknown`).
#[derive(Clone, Default)]
pub struct Stop(Arc<Shared>);

/// What every clone of a [`Stop`] shares, in one allocation: a portfolio
/// makes several flags per question, and on a search of a few microseconds
/// four allocations each were a visible part of `auto`'s overhead.
#[derive(Default)]
struct Shared {
    flag: AtomicBool,
    hooks: Mutex<Vec<Hook>>,
    /// An alarm rung by the first [`Stop::poll`] after its time (see [`Stop::set_alarm`]).
    armed: AtomicBool,
    alarm: Mutex<Option<(Instant, Alarm)>>,
}

/// Something to do once, when an alarm is due.
type Alarm = Box<dyn FnOnce() + Send>;

impl std::fmt::Debug for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Stop({})", self.is_set())
    }
}

impl Stop {
    pub fn interrupt(&self) {
        self.0.flag.store(true, Ordering::Relaxed);
        for h in self.0.hooks.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            h();
        }
    }
    pub fn clear(&self) {
        self.0.flag.store(false, Ordering::Relaxed);
    }
    pub fn is_set(&self) -> bool {
        self.0.flag.load(Ordering::Relaxed)
    }
    /// Call `hook` on every later interrupt (until [`Stop::clear_hooks`]).
    pub fn add_hook(&self, hook: Box<dyn Fn() + Send + Sync>) {
        self.0.hooks.lock().unwrap_or_else(|e| e.into_inner()).push(hook);
    }
    /// Forget the hooks (a backend does this before its solver is freed).
    pub fn clear_hooks(&self) {
        self.0.hooks.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    // ANCHOR: alarm
    /// Call `ring` at the first [`Stop::poll`] at or after `at`. A search that
    /// polls at every node thus starts a portfolio's second engine only once
    /// it has run for a while, and never when it answers sooner: no thread is
    /// spawned for the many questions answered in microseconds.
    pub fn set_alarm(&self, at: Instant, ring: Box<dyn FnOnce() + Send>) {
        *self.0.alarm.lock().unwrap_or_else(|e| e.into_inner()) = Some((at, ring));
        self.0.armed.store(true, Ordering::Release);
    }

    /// Drop an alarm that has not rung.
    pub fn disarm(&self) {
        self.0.armed.store(false, Ordering::Release);
        self.0.alarm.lock().unwrap_or_else(|e| e.into_inner()).take();
    }

    /// [`Stop::is_set`], after ringing the alarm if it is due.
    pub fn poll(&self) -> bool {
        if self.0.armed.load(Ordering::Acquire) {
            let due = {
                let mut a = self.0.alarm.lock().unwrap_or_else(|e| e.into_inner());
                match a.as_ref() {
                    Some((at, _)) if Instant::now() >= *at => a.take(),
                    _ => None,
                }
            };
            if let Some((_, ring)) = due {
                self.0.armed.store(false, Ordering::Release);
                ring();
            }
        }
        self.is_set()
    }
    // ANCHOR_END: alarm
}
