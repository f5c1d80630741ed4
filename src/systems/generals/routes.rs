//! Routes over the map (generals-rules.txt 37-41): the fewest steps from one
//! region to another through regions a test allows, and a route given region by
//! region (`VIA`). The checker reads them on a saved state (regions by index),
//! the mechanics on the world (regions by entity): one graph walk for both.

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;

/// Why a route cannot be taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RouteError<N> {
    /// `to` is not next to `from`.
    NotAdjacent {
        /// The step's start.
        from: N,
        /// The step's end.
        to: N,
    },
    /// A region on the way is not allowed (not the player's).
    Closed(N),
    /// The route is longer than the reach.
    TooLong {
        /// Its steps.
        steps: u32,
    },
    /// No way within the reach.
    NoWay,
}

/// The fewest steps from `from` to `to`, each into a region `open` allows (`to`
/// included), at most `reach`; the regions entered, in order, or `NoWay`.
/// Neighbours are tried in the order `next` gives them, so the route found is
/// the same on every run.
pub fn shortest<N: Copy + Eq + Hash>(
    from: N,
    to: N,
    reach: u32,
    next: impl Fn(N) -> Vec<N>,
    open: impl Fn(N) -> bool,
) -> Result<Vec<N>, RouteError<N>> {
    let mut came: HashMap<N, N> = HashMap::new();
    let mut queue = VecDeque::from([(from, 0u32)]);
    came.insert(from, from);
    while let Some((r, d)) = queue.pop_front() {
        if r == to {
            let mut path = vec![r];
            let mut at = r;
            while at != from {
                at = came[&at];
                path.push(at);
            }
            path.pop();
            path.reverse();
            return Ok(path);
        }
        if d == reach {
            continue;
        }
        for n in next(r) {
            if !came.contains_key(&n) && open(n) {
                came.insert(n, r);
                queue.push_back((n, d + 1));
            }
        }
    }
    Err(RouteError::NoWay)
}

/// The route `from` → `via`… → `to`, each step next to the last and into a
/// region `open` allows, at most `reach` steps: the regions entered.
pub fn follow<N: Copy + Eq>(
    from: N,
    via: &[N],
    to: N,
    reach: u32,
    adjacent: impl Fn(N, N) -> bool,
    open: impl Fn(N) -> bool,
) -> Result<Vec<N>, RouteError<N>> {
    let mut at = from;
    let mut path = Vec::with_capacity(via.len() + 1);
    for &n in via.iter().chain([&to]) {
        if !adjacent(at, n) {
            return Err(RouteError::NotAdjacent { from: at, to: n });
        }
        if !open(n) {
            return Err(RouteError::Closed(n));
        }
        path.push(n);
        at = n;
    }
    if path.len() as u32 > reach {
        return Err(RouteError::TooLong { steps: path.len() as u32 });
    }
    Ok(path)
}

/// A route: the shortest when `via` is empty, else the one given.
pub fn route<N: Copy + Eq + Hash>(
    from: N,
    via: &[N],
    to: N,
    reach: u32,
    next: impl Fn(N) -> Vec<N>,
    open: impl Fn(N) -> bool,
) -> Result<Vec<N>, RouteError<N>> {
    if via.is_empty() {
        shortest(from, to, reach, next, open)
    } else {
        let adjacent = |a: N, b: N| next(a).contains(&b);
        follow(from, via, to, reach, adjacent, open)
    }
}

/// A route error as a sentence: `name` names a region, `what` the order (`MOVE`).
pub fn explain<N: Copy>(
    e: &RouteError<N>,
    what: &str,
    reach: u32,
    (from, to): (&str, &str),
    name: impl Fn(N) -> String,
) -> String {
    match e {
        RouteError::NotAdjacent { from, to } => format!("{} is not next to {}", name(*to), name(*from)),
        RouteError::Closed(n) => format!("{what} goes only through your own regions: {} is not yours", name(*n)),
        RouteError::TooLong { steps } => format!("{what} goes at most {reach} regions, and this route is {steps}"),
        RouteError::NoWay if reach == u32::MAX => format!("no way from {from} to {to} through your own regions"),
        RouteError::NoWay => format!("{what} goes at most {reach} regions through your own: {to} cannot be reached"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // 0 - 1 - 2 - 3, and 0 - 4 - 3.
    fn next(n: u8) -> Vec<u8> {
        match n {
            0 => vec![1, 4],
            1 => vec![0, 2],
            2 => vec![1, 3],
            3 => vec![2, 4],
            _ => vec![0, 3],
        }
    }

    #[test]
    fn the_shortest_route_keeps_to_open_regions_and_the_reach() {
        assert_eq!(shortest(0, 3, 9, next, |_| true), Ok(vec![4, 3]));
        assert_eq!(shortest(0, 3, 9, next, |n| n != 4), Ok(vec![1, 2, 3]));
        assert_eq!(shortest(0, 3, 2, next, |n| n != 4), Err(RouteError::NoWay));
        assert_eq!(shortest(0, 0, 0, next, |_| false), Ok(vec![]));
    }

    #[test]
    fn a_given_route_is_followed_step_by_step() {
        let adj = |a: u8, b: u8| next(a).contains(&b);
        assert_eq!(follow(0, &[1, 2], 3, 3, adj, |_| true), Ok(vec![1, 2, 3]));
        assert_eq!(follow(0, &[2], 3, 3, adj, |_| true), Err(RouteError::NotAdjacent { from: 0, to: 2 }));
        assert_eq!(follow(0, &[1, 2], 3, 3, adj, |n| n != 2), Err(RouteError::Closed(2)));
        assert_eq!(follow(0, &[1, 2], 3, 2, adj, |_| true), Err(RouteError::TooLong { steps: 3 }));
    }
}
