//! The allocator of the `overlord` binary and its settings.
//!
//! The binary allocates with mimalloc (see `src/main.rs`). A turn is a batch: it
//! reads the state, builds the world, runs the month, renders every report, writes
//! them and ends, and each stage frees memory the next one needs. Memory handed
//! back to the system costs a page fault and the kernel zeroing the page when it
//! is used again; memory never handed back stays in the peak even where the next
//! stage cannot reuse it (blocks of other sizes, other threads' pages).
//!
//! Measured whole-process on the reference machine (2026-11-27): with freed memory
//! handed back after 100 ms, the alpha ×100 turn (0.8 s) took a tenth longer; after
//! a second, no longer, as its stages are shorter than that. With freed memory never
//! handed back, the 1,000,000-unit turn peaked at 3,010–3,050 MiB, over its 3 GB
//! budget; after a second, at 2,780–2,830 MiB, in the same time. So the binary waits
//! [`PURGE_DELAY_MS`]: a small turn keeps what it frees for its next stage, a big
//! one gives back what a stage left unused.

/// How long freed memory lies in the process before it goes back to the system,
/// in milliseconds (see the module's doc for the measurements behind it).
pub const PURGE_DELAY_MS: std::ffi::c_long = 1000;

/// mimalloc's `mi_option_purge_delay` (its `mimalloc.h`): milliseconds before freed
/// memory goes back to the system; -1 never.
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// mimalloc's `mi_option_allow_thp`: whether it asks for transparent huge pages
/// (`madvise(MADV_HUGEPAGE)`) on the memory it maps; 1 by default.
const ALLOW_THP: libmimalloc_sys::mi_option_t = 43;

/// mimalloc's `mi_option_destroy_on_exit` (its `mimalloc.h`): above 1, the
/// process's exit leaves mimalloc's memory as it is, for the system to take back
/// with the rest of the process (`_mi_auto_process_done`).
const DESTROY_ON_EXIT: libmimalloc_sys::mi_option_t = 22;

/// Sets when freed memory goes back to the system ([`PURGE_DELAY_MS`]), and maps
/// memory in small pages. Call once, first thing in `main`.
///
/// With transparent huge pages, every first touch of a 2 MiB region makes the
/// kernel clear all of it: on the reference machine this was half the CPU time of
/// the ×100 turn (`clear_page_erms`, 1.5–2.2 s of system time against 0.5 s
/// without), for 60 MB more at the peak. So the process asks for none: mimalloc no
/// longer advises them, and the process opts out of them (`PR_SET_THP_DISABLE`),
/// which also covers what was mapped before `main`.
pub fn configure() {
    // SAFETY: setting an option is allowed at any time; it only changes when
    // mimalloc purges, and whether it advises huge pages on its next mappings.
    unsafe {
        libmimalloc_sys::mi_option_set(PURGE_DELAY, PURGE_DELAY_MS);
        libmimalloc_sys::mi_option_set(ALLOW_THP, 0);
    }
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes plain integers and only sets a flag of this
    // process; a kernel without it returns an error, which changes nothing.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

/// Lets the process end without handing its memory back a page range at a time.
/// Call last in `main`, when nothing is left to allocate but what exit itself
/// needs.
///
/// At exit mimalloc frees every page it holds and purges its arenas (a `madvise`
/// per range, each sending every core a TLB flush while other threads live), all
/// for memory the system takes back whole with the process: 20–25 ms of the
/// alpha ×100 turn's 0.6 s on the reference machine (`perf`, 2026-11-28). So
/// purging stops and mimalloc's exit hook returns at once.
pub fn before_exit() {
    // SAFETY: as in `configure`; a negative purge delay only stops purging, and
    // the exit option is read once, by mimalloc's exit hook.
    unsafe {
        libmimalloc_sys::mi_option_set(PURGE_DELAY, -1);
        libmimalloc_sys::mi_option_set(DESTROY_ON_EXIT, 2);
    }
}

/// Opts the process out of transparent huge pages before anything is allocated:
/// the runtime's first allocations, before `main`, would otherwise fault in (and
/// clear) whole 2 MiB pages, a fixed cost of every short command (`submit`,
/// `check`). Run by the loader with the program's constructors.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static SMALL_PAGES_FROM_THE_START: extern "C" fn() = small_pages;

#[cfg(target_os = "linux")]
extern "C" fn small_pages() {
    // SAFETY: as in `configure`; it allocates nothing.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

/// The most memory the process has held so far (its peak resident set), in MB, as
/// the `-vv` log prints it after each stage of a turn; 0 where the system does not
/// say.
pub fn peak_mb() -> u64 {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: getrusage fills the struct it is given and touches nothing else.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } == 0 {
            return u64::try_from(usage.ru_maxrss).unwrap_or(0) / 1024;
        }
    }
    0
}

unsafe extern "C" {
    /// The process's heap (mimalloc 3's `mimalloc.h`), whose pages every thread
    /// allocates from.
    fn mi_heap_main() -> *mut libmimalloc_sys::mi_heap_t;
}

/// Adds up an area's live bytes: its blocks in use times their size.
unsafe extern "C" fn add_area(
    _heap: *const libmimalloc_sys::mi_heap_t,
    area: *const libmimalloc_sys::mi_heap_area_t,
    _block: *mut std::ffi::c_void,
    _size: usize,
    total: *mut std::ffi::c_void,
) -> bool {
    // SAFETY: mimalloc passes a valid area; `total` is the `u64` given below.
    unsafe {
        let a = &*area;
        *total.cast::<u64>() += (a.used as u64) * (a.block_size as u64);
    }
    true
}

/// The bytes the process holds in live allocations made through mimalloc, in MB,
/// as the `-vv` log prints them once the world is built and after the month:
/// what the world itself takes, where the peak also counts memory freed and kept.
/// Only meaningful while one thread runs, and where mimalloc is the global
/// allocator (the binary, the benches; not the tests, which count 0).
pub fn live_mb() -> u64 {
    let mut total = 0u64;
    // SAFETY: the heap is the process's; the visitor only reads the areas it is
    // given and adds to `total`, which outlives the call.
    unsafe {
        libmimalloc_sys::mi_heap_visit_blocks(
            mi_heap_main(),
            false,
            Some(add_area),
            (&raw mut total).cast::<std::ffi::c_void>(),
        );
    }
    total / 1_000_000
}

/// Drops `x` on a thread of its own, so that the caller goes on without waiting
/// for millions of small blocks to be freed (a big world's records, or the world
/// itself). With no thread to be had, `x` is dropped here (a thread that cannot be
/// made drops what it was given).
pub fn drop_aside<T: Send + 'static>(what: &str, x: T) {
    if let Err(e) = std::thread::Builder::new().name(format!("{what} drop")).spawn(move || drop(x)) {
        tracing::debug!("{what} dropped in place: {e}");
    }
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

    /// The peak grows when memory is touched, and never falls.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_peak_counts_memory_touched() {
        let before = peak_mb();
        let block = vec![1u8; 64 << 20];
        assert!(block.iter().step_by(4096).all(|&b| b == 1));
        let after = peak_mb();
        assert!(after >= before && after >= 64, "peak {before} MB, then {after} MB");
        drop(block);
        assert!(peak_mb() >= after);
    }

    /// Live bytes count what is allocated through mimalloc and not yet freed.
    #[test]
    fn live_bytes_count_blocks_in_use() {
        let before = live_mb();
        // SAFETY: plain allocations of mimalloc, each freed below.
        let blocks: Vec<*mut std::ffi::c_void> =
            (0..50_000).map(|_| unsafe { libmimalloc_sys::mi_malloc(1000) }).collect();
        assert!(blocks.iter().all(|b| !b.is_null()));
        let during = live_mb();
        for b in blocks {
            // SAFETY: each block came from mi_malloc and is freed once.
            unsafe { libmimalloc_sys::mi_free(b) };
        }
        let after = live_mb();
        assert!(during >= before + 45, "{before} MB, then {during} MB with 50 MB more");
        assert!(after + 45 <= during, "{during} MB, then {after} MB once freed");
    }

    /// The option number is mimalloc's `allow_thp`: on by default.
    #[test]
    fn the_huge_page_option_is_the_one_set() {
        // SAFETY: as above.
        assert_eq!(unsafe { libmimalloc_sys::mi_option_get(ALLOW_THP) }, 1);
    }
}
