//! Ordered parallel map: the engine's own parallel loops (report building and
//! rendering) split a list into one contiguous chunk per thread and put the results
//! back in list order, so the output never depends on the thread count.

/// Maps `f` over `items` on up to `threads` threads; results are in `items` order.
pub fn map_ordered<T: Sync, R: Send>(items: &[T], threads: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    if threads <= 1 || items.len() < 2 {
        return items.iter().map(&f).collect();
    }
    let chunk = items.len().div_ceil(threads);
    let f = &f;
    std::thread::scope(|s| {
        let handles: Vec<_> =
            items.chunks(chunk).map(|c| s.spawn(move || c.iter().map(f).collect::<Vec<R>>())).collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn results_keep_the_input_order_whatever_the_thread_count() {
        let items: Vec<u32> = (0..101).collect();
        let want: Vec<u32> = items.iter().map(|x| x * 3).collect();
        for threads in [0, 1, 2, 3, 7, 200] {
            assert_eq!(super::map_ordered(&items, threads, |x| x * 3), want, "{threads} threads");
        }
    }
}
