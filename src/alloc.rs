//! A global allocator that counts each thread's live heap bytes and their
//! peak: the in-process memory of one call (GRIDWALKER's, or a Rust SAT
//! solver's) for the thesis' Table 6.3. A binary that wants it installs it
//! (`#[global_allocator] static A: CountingAlloc = CountingAlloc;`) and reads
//! the peak with [`reset_peak`] and [`peak_bytes`]. It cannot see C and C++
//! solvers, which allocate with `malloc` directly: [`crate::cnf::child`]
//! measures those.
//!
//! Book: Part II, chapter 6, section 6.1.1, Table 6.3 (`book/src/thesis/ch6.md`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

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

// SAFETY: every call goes to the system allocator unchanged; the counting
// only touches const-initialised thread-locals, which never allocate.
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
