//! The allocator of the `overlord` binary and its settings.
//!
//! The binary allocates with mimalloc (see `src/main.rs`). By default mimalloc
//! hands freed memory back to the system after a second, and the next allocation of
//! that memory costs a page fault and the kernel zeroing the page. A turn is a batch:
//! it builds the world, runs the month, renders every report, writes them and ends,
//! and each stage frees memory the next one needs. Giving memory back between
//! stages only to fault it in again cost about a fifth of the alpha-sized ×100
//! turn (README, "Performance"), so the binary keeps freed memory for reuse.
//! The peak is unchanged: what is kept is what the turn already used.

/// mimalloc's `mi_option_purge_delay` (its `mimalloc.h`): milliseconds before freed
/// memory goes back to the system; -1 never.
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Keeps freed memory in the process for reuse instead of returning it to the
/// system. Call once, first thing in `main`.
pub fn keep_freed_memory() {
    // SAFETY: setting an option is allowed at any time; it only changes when
    // mimalloc purges.
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, -1) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The option number is mimalloc's purge delay: its default is 1000 ms.
    #[test]
    fn the_purge_delay_option_is_the_one_set() {
        // SAFETY: reading an option has no side effect but initialising it.
        let default = unsafe { libmimalloc_sys::mi_option_get(PURGE_DELAY) };
        assert_eq!(default, 1000);
    }
}
