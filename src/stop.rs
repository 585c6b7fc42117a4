//! A flag that stops a running search from another thread, with hooks for
//! solvers that cannot poll it and an alarm that starts a portfolio's second
//! engine. Every engine (SAT backends, GRIDWALKER, the space-time search)
//! takes one; it depends on nothing else in the crate.
//!
//! Book: Part IV, "A GRIDWALKER that never loses badly" (`book/src/beyond/robust.md`).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Something to call when a solve must stop (shared, so that
/// [`Stop::interrupt`] can call it after letting go of the list).
type Hook = Arc<dyn Fn() + Send + Sync>;

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
    hooks: Mutex<Vec<(u64, Hook)>>,
    /// The number the next hook gets, so that its [`HookGuard`] removes it alone.
    next_hook: AtomicU64,
    /// An alarm rung by the first [`Stop::poll`] after its time (see [`Stop::set_alarm`]).
    armed: AtomicBool,
    alarm: Mutex<Option<(Instant, Alarm)>>,
}

/// Keeps a hook registered by [`Stop::add_hook`]; dropping it removes that hook.
#[must_use = "dropping the guard removes the hook at once"]
pub struct HookGuard {
    stop: Stop,
    id: u64,
}

impl Drop for HookGuard {
    fn drop(&mut self) {
        self.stop.hooks().retain(|(id, _)| *id != self.id);
    }
}

/// Something to do once, when an alarm is due.
type Alarm = Box<dyn FnOnce() + Send>;

impl std::fmt::Debug for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Stop({})", self.is_set())
    }
}

impl Stop {
    /// Raise the flag and call every hook. The hooks are called after the
    /// list's lock is let go, so a hook may itself add or drop hooks on this
    /// flag, or interrupt a flag that follows this one back (a hook dropped
    /// meanwhile may still be called by this interrupt, never by a later one).
    pub fn interrupt(&self) {
        self.0.flag.store(true, Ordering::Relaxed);
        let hooks: Vec<Hook> = self.hooks().iter().map(|(_, h)| h.clone()).collect();
        for h in hooks {
            h();
        }
    }
    pub fn clear(&self) {
        self.0.flag.store(false, Ordering::Relaxed);
    }
    pub fn is_set(&self) -> bool {
        self.0.flag.load(Ordering::Relaxed)
    }
    fn hooks(&self) -> std::sync::MutexGuard<'_, Vec<(u64, Hook)>> {
        self.0.hooks.lock().unwrap_or_else(|e| e.into_inner())
    }
    /// Call `hook` on every later interrupt, until the guard is dropped. A
    /// hook usually points at a solver that lives less long than the flag (a
    /// caller's flag outlives many questions), so it must go with the solver;
    /// dropping one guard leaves every other hook on the flag in place.
    pub fn add_hook(&self, hook: Box<dyn Fn() + Send + Sync>) -> HookGuard {
        let id = self.0.next_hook.fetch_add(1, Ordering::Relaxed);
        self.hooks().push((id, Arc::from(hook)));
        HookGuard { stop: self.clone(), id }
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

#[cfg(test)]
mod tests {
    use super::Stop;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn counter(stop: &Stop) -> (Arc<AtomicUsize>, super::HookGuard) {
        let n = Arc::new(AtomicUsize::new(0));
        let m = n.clone();
        (n, stop.add_hook(Box::new(move || _ = m.fetch_add(1, Ordering::Relaxed))))
    }

    #[test]
    fn dropping_a_guard_removes_its_hook_alone() {
        let stop = Stop::default();
        let (kept, _keep) = counter(&stop);
        let (gone, guard) = counter(&stop);
        drop(guard);
        stop.interrupt();
        assert_eq!(kept.load(Ordering::Relaxed), 1);
        assert_eq!(gone.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn a_hook_may_drop_hooks_on_its_own_flag() {
        // A hook that ends a solve drops that solve's guard: with the list
        // still locked during the call, this deadlocked.
        let stop = Stop::default();
        let (n, guard) = counter(&stop);
        let slot = Arc::new(std::sync::Mutex::new(Some(guard)));
        let s2 = slot.clone();
        let _dropper = stop.add_hook(Box::new(move || drop(s2.lock().unwrap().take())));
        stop.interrupt();
        assert!(slot.lock().unwrap().is_none());
        assert_eq!(stop.hooks().len(), 1);
        stop.interrupt();
        assert_eq!(n.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn a_flag_used_for_many_solves_keeps_its_own_hook() {
        // A caller's flag outlives each solve that borrows it.
        let stop = Stop::default();
        let (outer, _keep) = counter(&stop);
        for _ in 0..3 {
            let (_, guard) = counter(&stop);
            drop(guard);
        }
        assert_eq!(stop.hooks().len(), 1);
        stop.interrupt();
        assert_eq!(outer.load(Ordering::Relaxed), 1);
    }
}
