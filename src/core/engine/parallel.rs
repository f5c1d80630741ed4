//! Ordered parallel map: the engine's own parallel loops (report building and
//! rendering) share a list's items among threads and put the results back in list
//! order, so the output never depends on the thread count.

/// Maps `f` over `items` on up to `threads` threads; results are in `items` order.
///
/// Each thread takes the next item not yet taken, so that items of unequal cost
/// (a faction of 2 units beside one of 2,000) keep every thread busy to the end;
/// where each result was made never changes where it is put.
pub fn map_ordered<T: Sync, R: Send>(items: &[T], threads: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    if threads <= 1 || items.len() < 2 {
        return items.iter().map(&f).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(item) = items.get(i) else { break };
            done.push((i, f(item)));
        }
        done
    };
    let parts: Vec<Vec<(usize, R)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.min(items.len())).map(|_| s.spawn(work)).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
    });
    let mut slots: Vec<Option<R>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    for (i, r) in parts.into_iter().flatten() {
        slots[i] = Some(r);
    }
    slots.into_iter().map(|r| r.expect("every item is taken once")).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn items_of_unequal_cost_keep_their_order() {
        // The first items cost the most: threads finish out of order.
        let items: Vec<u64> = (0..64).collect();
        let f = |&x: &u64| {
            let mut h = x;
            for _ in 0..(64 - x) * 2_000 {
                h = h.wrapping_mul(6364136223846793005).wrapping_add(1);
            }
            (x, h)
        };
        let want: Vec<(u64, u64)> = items.iter().map(f).collect();
        for threads in [2, 3, 8] {
            assert_eq!(super::map_ordered(&items, threads, f), want, "{threads} threads");
        }
    }

    #[test]
    fn results_keep_the_input_order_whatever_the_thread_count() {
        let items: Vec<u32> = (0..101).collect();
        let want: Vec<u32> = items.iter().map(|x| x * 3).collect();
        for threads in [0, 1, 2, 3, 7, 200] {
            assert_eq!(super::map_ordered(&items, threads, |x| x * 3), want, "{threads} threads");
        }
    }
}
