//! Run-time choice of vector instructions, written once. A hot method is
//! compiled again inside `#[target_feature]` copies, so that its portable
//! body may use wider registers, and a dispatcher calls the first copy the
//! CPU can run. Every engine with such copies writes them through
//! [`simd_copies!`]; only LIFECUBE's full-band sweep, whose AVX-512 copy also
//! picks a hand-written kernel, keeps its copies by hand.
//!
//! Book: Part II, chapter 5, section 5.3.1 (`book/src/thesis/ch5.md`).

/// Writes `fn NAME(receiver, args) -> R`, a method or a free function,
/// that calls the first copy whose condition holds on this CPU, else
/// `PORTABLE` (mark it `#[inline(always)]`); and each copy, an `unsafe fn
/// COPY` compiled with `#[target_feature(enable = FEATURES)]` whose body is
/// `PORTABLE`. A condition must detect every feature its copy is compiled
/// with. The `-> R` is required (`-> ()` too), so that one pattern serves all.
///
/// ```text
/// simd_copies! {
///     /// Docs of the dispatcher.
///     pub fn run(&self, x: usize) -> u64 => run_portable;
///     run_avx2: "avx2,bmi2" if has!("avx2") && has!("bmi2");
/// }
/// ```
macro_rules! simd_copies {
    // A method is called through `Self::`, a free function through
    // `self::`, so that the receiver is one more argument and one expansion
    // serves both.
    ($(#[$m:meta])* $v:vis fn $name:ident(&mut $s:ident $(, $a:ident: $t:ty)* $(,)?) -> $r:ty => $portable:ident;
     $($copy:ident: $feat:literal if $cond:expr;)+) => {
        $crate::simd::simd_copies!(@expand [$(#[$m])*] $v $name (&mut $s $(, $a: $t)*) Self ($s $(, $a)*)
            $r, $portable; $($copy: $feat if $cond;)+);
    };
    ($(#[$m:meta])* $v:vis fn $name:ident(&$s:ident $(, $a:ident: $t:ty)* $(,)?) -> $r:ty => $portable:ident;
     $($copy:ident: $feat:literal if $cond:expr;)+) => {
        $crate::simd::simd_copies!(@expand [$(#[$m])*] $v $name (&$s $(, $a: $t)*) Self ($s $(, $a)*)
            $r, $portable; $($copy: $feat if $cond;)+);
    };
    ($(#[$m:meta])* $v:vis fn $name:ident($($a:ident: $t:ty),* $(,)?) -> $r:ty => $portable:ident;
     $($copy:ident: $feat:literal if $cond:expr;)+) => {
        $crate::simd::simd_copies!(@expand [$(#[$m])*] $v $name ($($a: $t),*) self ($($a),*)
            $r, $portable; $($copy: $feat if $cond;)+);
    };
    (@expand [$($m:tt)*] $v:vis $name:ident $params:tt $p:ident $args:tt $r:ty, $portable:ident;
     $($copy:ident: $feat:literal if $cond:expr;)+) => {
        $($m)*
        $v fn $name $params -> $r {
            #[cfg(target_arch = "x86_64")]
            {
                #[allow(unused_imports)]
                use $crate::simd::has;
                $(
                    if $cond {
                        // SAFETY: the condition just checked detects every feature the copy is compiled with.
                        return unsafe { $p::$copy $args };
                    }
                )+
            }
            $p::$portable $args
        }
        $(
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = $feat)]
            unsafe fn $copy $params -> $r {
                $p::$portable $args
            }
        )+
    };
}
pub(crate) use simd_copies;

/// Whether this CPU has the named x86 feature, for [`simd_copies!`]'s conditions.
/// A macro, because the standard library's detection takes a literal.
#[cfg(target_arch = "x86_64")]
macro_rules! has {
    ($f:tt) => {
        std::arch::is_x86_feature_detected!($f)
    };
}
#[cfg(target_arch = "x86_64")]
pub(crate) use has;

#[cfg(test)]
mod tests {
    struct Probe {
        calls: u32,
    }

    impl Probe {
        #[inline(always)]
        fn body(&mut self, x: u32, y: u32) -> u32 {
            self.calls += 1;
            x * y
        }

        simd_copies! {
            fn times(&mut self, x: u32, y: u32) -> u32 => body;
            times_never: "avx512f" if false;
            times_sse2: "sse2" if has!("sse2");
        }

        #[inline(always)]
        fn peek(&self, x: u32) -> u32 {
            x + self.calls
        }

        simd_copies! {
            fn plus_calls(&self, x: u32) -> u32 => peek;
            plus_calls_popcnt: "popcnt" if has!("popcnt");
        }
    }

    #[inline(always)]
    fn ones(a: u64) -> u32 {
        a.count_ones()
    }

    simd_copies! {
        fn count(a: u64) -> u32 => ones;
        count_popcnt: "popcnt" if has!("popcnt");
    }

    #[test]
    fn the_dispatcher_runs_the_portable_body_once_whichever_copy_it_picks() {
        let mut p = Probe { calls: 0 };
        assert_eq!(p.times(6, 7), 42);
        assert_eq!(p.times(0, 9), 0);
        assert_eq!(p.calls, 2);
        assert_eq!(p.plus_calls(40), 42);
        assert_eq!(count(u64::MAX), 64);
        assert_eq!(count(0b1011), 3);
    }
}
