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
    // The calling thread takes items too, beside `threads - 1` others: it keeps
    // what it had in its cache, and one thread fewer is started.
    let parts: Vec<Vec<(usize, R)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (1..threads.min(items.len())).map(|_| s.spawn(work)).collect();
        let mine = work();
        let mut parts: Vec<_> =
            handles.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect();
        parts.push(mine);
        parts
    });
    let mut slots: Vec<Option<R>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    for (i, r) in parts.into_iter().flatten() {
        slots[i] = Some(r);
    }
    slots.into_iter().map(|r| r.expect("every item is taken once")).collect()
}

/// How far the threads of [`stream_ordered`] may run ahead of the results taken:
/// at most `items` items made or being made and not yet taken, of total `weight`
/// at most `budget` (one item is always allowed, however heavy).
pub struct Window<W> {
    pub items: usize,
    pub budget: usize,
    pub weight: W,
}

/// What the threads of [`stream_ordered`] share: the next item to take, the
/// results made and not yet taken (slot `k` is item `taken + k`), and their weight.
struct Flow<R> {
    next: usize,
    taken: usize,
    load: usize,
    made: std::collections::VecDeque<Option<R>>,
    /// Threads waiting for room (told only when there are some).
    waiting: usize,
    /// A thread stopped (`take` failed, or `f` panicked): the others stop too.
    stop: bool,
}

/// Maps `f` over `items` on `threads` threads and gives each result to `take`, on
/// the calling thread and in `items` order, as soon as it and every result before
/// it are made; stops at the first error of `take` and returns it.
///
/// Unlike [`map_ordered`] over batches, no thread waits for the slowest item of
/// a batch before the next batch starts: each takes the next item as soon as it
/// is free, within `window` of the last result taken, so that memory holds a
/// bounded stretch of results however long the list. The results, and the order
/// `take` sees them in, never depend on the thread count.
pub fn stream_ordered<T: Sync, R: Send, E>(
    items: &[T],
    threads: usize,
    window: Window<impl Fn(&T) -> usize + Sync>,
    f: impl Fn(&T) -> R + Sync,
    mut take: impl FnMut(R) -> Result<(), E>,
) -> Result<(), E> {
    use std::sync::{Condvar, Mutex, PoisonError};
    if threads <= 1 || items.len() < 2 {
        return items.iter().try_for_each(|x| take(f(x)));
    }
    let flow = Mutex::new(Flow { next: 0, taken: 0, load: 0, made: Default::default(), waiting: 0, stop: false });
    // `room`: a result was taken or a thread stopped; `ready`: a result was made.
    let (room, ready) = (Condvar::new(), Condvar::new());
    let lock = || flow.lock().unwrap_or_else(PoisonError::into_inner);
    let Window { items: ahead, budget, weight } = window;
    let work = || {
        // A panic in `f` stops every thread; the scope then raises it.
        struct Stop<'a, R>(&'a Mutex<Flow<R>>, &'a Condvar, &'a Condvar);
        impl<R> Drop for Stop<'_, R> {
            fn drop(&mut self) {
                if std::thread::panicking() {
                    self.0.lock().unwrap_or_else(PoisonError::into_inner).stop = true;
                    self.1.notify_all();
                    self.2.notify_all();
                }
            }
        }
        let _stop = Stop(&flow, &room, &ready);
        loop {
            let i = {
                let mut g = lock();
                loop {
                    if g.stop || g.next >= items.len() {
                        return;
                    }
                    let w = weight(&items[g.next]);
                    if g.next == g.taken || (g.next - g.taken < ahead && g.load.saturating_add(w) <= budget) {
                        g.load = g.load.saturating_add(w);
                        g.next += 1;
                        g.made.push_back(None);
                        break g.next - 1;
                    }
                    g.waiting += 1;
                    g = room.wait(g).unwrap_or_else(PoisonError::into_inner);
                    g.waiting -= 1;
                }
            };
            let r = f(&items[i]);
            let mut g = lock();
            let k = i - g.taken;
            g.made[k] = Some(r);
            drop(g);
            // Only the first result not taken lets the taker on.
            if k == 0 {
                ready.notify_one();
            }
        }
    };
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads.min(items.len())).map(|_| s.spawn(work)).collect();
        let mut out = Ok(());
        for x in items {
            let (r, waiting) = {
                let mut g = lock();
                loop {
                    if let Some(r) = g.made.front_mut().and_then(Option::take) {
                        g.made.pop_front();
                        g.taken += 1;
                        g.load -= weight(x);
                        break (Some(r), g.waiting > 0);
                    }
                    if g.stop {
                        break (None, false);
                    }
                    g = ready.wait(g).unwrap_or_else(PoisonError::into_inner);
                }
            };
            if waiting {
                room.notify_all();
            }
            let Some(r) = r else { break };
            out = take(r);
            if out.is_err() {
                break;
            }
        }
        if out.is_err() {
            lock().stop = true;
            room.notify_all();
        }
        for w in workers {
            w.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
        }
        out
    })
}

#[cfg(test)]
mod tests {

    use super::{Window, stream_ordered};
    use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};

    fn costly(x: u64) -> u64 {
        let mut h = x;
        for _ in 0..(x % 7) * 3_000 {
            h = h.wrapping_mul(6364136223846793005).wrapping_add(1);
        }
        h
    }

    #[test]
    fn a_stream_gives_results_in_order_whatever_the_thread_count() {
        let items: Vec<u64> = (0..300).collect();
        let want: Vec<u64> = items.iter().map(|&x| costly(x)).collect();
        for threads in [0, 1, 2, 3, 8] {
            let mut got = Vec::new();
            let window = Window { items: 5, budget: 1_000, weight: |_: &u64| 1 };
            let r: Result<(), ()> = stream_ordered(
                &items,
                threads,
                window,
                |&x| costly(x),
                |r| {
                    got.push(r);
                    Ok(())
                },
            );
            assert_eq!(r, Ok(()));
            assert_eq!(got, want, "{threads} threads");
        }
    }

    #[test]
    fn a_stream_never_runs_further_ahead_than_its_window() {
        let items: Vec<u64> = (0..400).collect();
        for (ahead, budget, weight) in [(4usize, usize::MAX, 1usize), (1000, 30, 10), (1000, 5, 10)] {
            let (claimed, taken, most) = (AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0));
            let window = Window { items: ahead, budget, weight: |_: &u64| weight };
            let f = |&x: &u64| {
                let c = claimed.fetch_add(1, SeqCst) + 1;
                most.fetch_max(c - taken.load(SeqCst), SeqCst);
                costly(x)
            };
            // A slow taker: the threads would run far ahead if they could.
            let _: Result<(), ()> = stream_ordered(&items, 3, window, f, |r| {
                std::hint::black_box(costly(r | 5));
                taken.fetch_add(1, SeqCst);
                Ok(())
            });
            // Items made or being made, not yet taken: within the count, within the
            // weight (one item always); plus the one being handed to the taker,
            // which has left the window before the taker counts it.
            let bound = ahead.min((budget / weight).max(1)) + 1;
            let seen = most.load(SeqCst);
            assert!(seen <= bound, "{seen} items ahead, window {bound}");
            assert_eq!(claimed.load(SeqCst), items.len());
        }
    }

    #[test]
    fn a_stream_stops_at_the_first_error_of_what_takes_its_results() {
        let items: Vec<u64> = (0..1_000).collect();
        let made = AtomicUsize::new(0);
        let mut given = Vec::new();
        let window = Window { items: 8, budget: usize::MAX, weight: |_: &u64| 1 };
        let r = stream_ordered(
            &items,
            2,
            window,
            |&x| {
                made.fetch_add(1, SeqCst);
                x
            },
            |x| {
                given.push(x);
                if x == 10 { Err(format!("stopped at {x}")) } else { Ok(()) }
            },
        );
        assert_eq!(r, Err("stopped at 10".to_string()));
        assert_eq!(given, (0..=10).collect::<Vec<u64>>());
        assert!(made.load(SeqCst) <= 11 + 8, "{} made", made.load(SeqCst));
    }

    #[test]
    #[should_panic(expected = "item 37")]
    fn a_panic_while_streaming_reaches_the_caller() {
        let items: Vec<u64> = (0..200).collect();
        let window = Window { items: 4, budget: usize::MAX, weight: |_: &u64| 1 };
        let _: Result<(), ()> = stream_ordered(
            &items,
            2,
            window,
            |&x| {
                assert!(x != 37, "item {x}");
                x
            },
            |_| Ok(()),
        );
    }
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

    #[test]
    fn the_calling_thread_maps_beside_the_others_and_no_more_threads_start() {
        // The first two items each wait for the other: two threads take them, and
        // with two threads asked for, one of them is the caller.
        let items: Vec<u32> = (0..40).collect();
        let meet = std::sync::Barrier::new(2);
        let seen = std::sync::Mutex::new(std::collections::BTreeSet::new());
        let got = super::map_ordered(&items, 2, |&x| {
            seen.lock().unwrap().insert(format!("{:?}", std::thread::current().id()));
            if x < 2 {
                meet.wait();
            }
            x + 1
        });
        assert_eq!(got, (1..41).collect::<Vec<u32>>());
        let seen = seen.into_inner().unwrap();
        assert!(seen.contains(&format!("{:?}", std::thread::current().id())), "{seen:?}");
        assert_eq!(seen.len(), 2, "{seen:?}");
    }

    #[test]
    #[should_panic(expected = "item 13")]
    fn a_panic_while_mapping_reaches_the_caller() {
        let items: Vec<u32> = (0..100).collect();
        super::map_ordered(&items, 2, |&x| if x == 13 { panic!("item 13") } else { x });
    }
}
