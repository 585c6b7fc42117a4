//! Test hooks (feature `test-hooks`): a flag per thread that a test turns on
//! around a closure, so that one engine misbehaves on purpose (a spoiled
//! answer, a sweep that passes nothing) and the test can see what notices.

use std::cell::Cell;
use std::thread::LocalKey;

/// A hook's flag: `thread_local!` of a `Cell<bool>` starting false.
pub(crate) type Flag = LocalKey<Cell<bool>>;

/// Run `f` with `flag` on for this thread, and put it back as it was after,
/// even if `f` panics (a failing test must not leave the hook on for the
/// next test that runs on the same thread).
pub(crate) fn with_flag<T>(flag: &'static Flag, f: impl FnOnce() -> T) -> T {
    struct Restore(&'static Flag, bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            self.0.with(|t| t.set(self.1));
        }
    }
    let _restore = Restore(flag, flag.with(|t| t.replace(true)));
    f()
}

/// Is `flag` on for this thread?
#[inline(always)]
pub(crate) fn is_on(flag: &'static Flag) -> bool {
    flag.with(Cell::get)
}
