//! Working through a unit's order list: the rules of PFX-* and SCH-IMM, SCH-FULL,
//! independent of what the orders do.
//!
//! The engine calls [`run_one`] once per unit per pass, with a closure that tries an
//! order against the world and says what happened ([`Outcome`]). This module decides
//! which orders are considered, in which order, and what becomes of the list:
//!
//! * orders are tried in list order; one whose conditions fail is skipped and kept
//!   (PFX-SEQ);
//! * an order with dashes is not considered (PFX-DASH); one with `Dnn` only on day nn
//!   (PFX-DAY); an order runs at most once a day, even with `@` (PFX-REPEAT, SCH-IMM);
//! * when an order runs, the `+` orders after it are removed (PFX-PLUS): the `+`
//!   orders that follow it, passing over dashed orders (which belong to its own
//!   conditional), up to the first order with neither `-` nor `+`;
//! * an order that ran leaves the list unless `@` (PFX-REMOVE); conditions ignore `@`
//!   (PFX-REPEAT); a duration counts down one per day run and the order leaves at 0
//!   (PFX-DUR); one-shot and movement orders ignore durations; an order that reached
//!   its stop condition leaves even with `@` or days left (PFX-STOP);
//! * an invalid order leaves the list without running (PFX-REMOVE);
//! * when an order leaves the list, each following order loses one dash, stopping at
//!   the first order that had none (PFX-UNDASH);
//! * `WAIT n` counts down at the end of each day on which it is considered, and runs
//!   once it reaches 0.

use super::syntax::{Duration, Entry, Nature, Order, Repeat};

/// An entry of a unit's pending list, with what the day has done to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Queued {
    /// The order and its prefixes.
    pub entry: Entry,
    /// The day of the month it last ran (0: not this month).
    pub ran_on: u32,
    /// The first day of the month it may be tried again, when its handler said it
    /// cannot run before ([`Outcome::NotUntil`]; 0: any day).
    pub wake_on: u32,
    /// Whether it was tried this month and its conditions did not hold.
    pub waited: bool,
}

impl Queued {
    /// A pending entry that has not run this month.
    pub fn new(entry: Entry) -> Self {
        Queued { entry, ran_on: 0, wake_on: 0, waited: false }
    }

    /// A new month: the entry has not run and sleeps no more.
    pub fn new_month(&mut self) {
        self.ran_on = 0;
        self.wake_on = 0;
        self.waited = false;
    }

    /// Whether the entry was tried this month and never ran: what the month's end
    /// tells the player, so that no order waits unseen.
    pub fn waited_all_month(&self) -> bool {
        self.waited && self.ran_on == 0
    }

    /// Whether the entry sleeps on `day` ([`Outcome::NotUntil`]).
    pub fn asleep(&self, day: u32) -> bool {
        day < self.wake_on
    }

    /// Whether the entry may be tried on `day`: no dash, the right day, not run yet today.
    pub fn considered(&self, day: u32) -> bool {
        let p = &self.entry.prefix;
        p.dashes == 0 && p.day.is_none_or(|d| d == day) && self.ran_on != day && !self.asleep(day)
    }
}

/// Which orders a pass looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pass {
    /// Immediate and half-day orders (SCH-IMM).
    Immediate,
    /// Full-day and movement orders (SCH-FULL).
    FullDay,
}

impl Pass {
    /// Whether the pass looks at `order`.
    pub fn admits(self, order: &Order) -> bool {
        match self {
            Pass::Immediate => order.is_immediate(),
            Pass::FullDay => matches!(order.duration(), Duration::FullDay | Duration::Movement),
        }
    }
}

/// What trying an order did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Its conditions do not hold now: skipped and kept (PFX-SEQ).
    NotNow,
    /// Its conditions cannot hold before that day of the month (a market day): as
    /// [`Outcome::NotNow`], and not tried again until then.
    NotUntil(u32),
    /// It can never run: removed, with the reason for the report (PFX-REMOVE).
    Invalid(String),
    /// It ran.
    Ran(Progress),
}

/// How far an order that ran has got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// It did its work for this time; the prefix decides whether it stays.
    Step,
    /// It has more to do by itself (STUDY to a level, a partial BUY): it stays unless
    /// its duration runs out.
    Continue,
    /// It reached its goal or stop condition: it leaves the list (PFX-STOP).
    Done,
}

/// What a call to [`run_one`] did to the list.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Report {
    /// Whether an order ran.
    pub ran: bool,
    /// Orders removed as invalid, with the reason: `(canonical order, reason)` is
    /// built by the caller; here the removed entries and reasons.
    pub invalid: Vec<(Entry, String)>,
    /// Whether the list lost entries or an entry became another kind of order:
    /// what the list holds changed, not only how its entries stand (the day one
    /// ran, its count, what it waits for).
    pub reshaped: bool,
}

/// Tries the orders of `list` that `pass` looks at, in list order, until one runs.
/// `run` is called with the index and the entry (whose arguments it may update, as
/// a partial BUY or a CARAVAN does).
pub fn run_one(list: &mut Vec<Queued>, day: u32, pass: Pass, run: impl FnMut(&mut Entry) -> Outcome) -> Report {
    let len = list.len();
    let mut report = try_in_turn(list, day, pass, run);
    report.reshaped |= list.len() != len;
    report
}

/// [`run_one`]'s tries, and what they did but shorten the list, which
/// [`run_one`] adds.
fn try_in_turn(list: &mut Vec<Queued>, day: u32, pass: Pass, mut run: impl FnMut(&mut Entry) -> Outcome) -> Report {
    let mut report = Report::default();
    let mut i = 0;
    while i < list.len() {
        let q = &mut list[i];
        if !q.considered(day) || !pass.admits(&q.entry.order) {
            i += 1;
            continue;
        }
        let kind = std::mem::discriminant(&q.entry.order);
        let outcome = run(&mut q.entry);
        report.reshaped |= std::mem::discriminant(&q.entry.order) != kind;
        match outcome {
            Outcome::NotNow => {
                q.waited = true;
                i += 1;
            }
            Outcome::NotUntil(day) => {
                q.wake_on = day;
                q.waited = true;
                i += 1;
            }
            Outcome::Invalid(reason) => {
                let removed = remove(list, i);
                report.invalid.push((removed, reason));
            }
            Outcome::Ran(progress) => {
                settle(list, i, day, progress);
                report.ran = true;
                return report;
            }
        }
    }
    report
}

/// Whether any entry of `list` could be tried in `pass` today or later today (not
/// dashed entries included: they may lose their dash during the day).
pub fn has_any(list: &[Queued], pass: Pass) -> bool {
    list.iter().any(|q| pass.admits(&q.entry.order))
}

/// The index of the first entry that may be tried today and matches `pred`: how
/// special orders find their partner (SYNCHRO, SWAP, ACCEPT).
pub fn find_considered(list: &[Queued], day: u32, pred: impl Fn(&Order) -> bool) -> Option<usize> {
    list.iter().position(|q| q.considered(day) && pred(&q.entry.order))
}

/// Books the run of entry `i` with `progress`: marks it, removes the `+` alternatives
/// after it, and removes it if it is finished.
pub fn settle(list: &mut Vec<Queued>, i: usize, day: u32, progress: Progress) {
    list[i].ran_on = day;
    // PFX-PLUS: the alternatives after the order that ran.
    let mut j = i + 1;
    while j < list.len() {
        let p = list[j].entry.prefix;
        if p.dashes > 0 {
            j += 1;
        } else if p.plus {
            list.remove(j);
        } else {
            break;
        }
    }
    let entry = &mut list[i].entry;
    let nature = entry.order.nature();
    let ignores_duration = matches!(nature, Nature::OneShot) || entry.order.duration() == Duration::Movement;
    let finished = match (progress, nature, entry.prefix.repeat) {
        (Progress::Done, _, _) => true,
        (_, Nature::Condition, _) => true,
        (_, _, Repeat::Always) => false,
        (Progress::Continue, _, Repeat::Once) => false,
        (_, _, Repeat::Once) => true,
        (_, _, Repeat::Days(_)) if ignores_duration => progress != Progress::Continue,
        (_, _, Repeat::Days(n)) => {
            let left = n.saturating_sub(1);
            entry.prefix.repeat = Repeat::Days(left);
            left == 0
        }
    };
    if finished {
        remove(list, i);
    }
}

/// Removes entry `i` and takes one dash off each following entry, stopping at the
/// first that had none (PFX-UNDASH). Returns the removed entry.
pub fn remove(list: &mut Vec<Queued>, i: usize) -> Entry {
    let removed = list.remove(i).entry;
    for q in list[i..].iter_mut() {
        if q.entry.prefix.dashes == 0 {
            break;
        }
        q.entry.prefix.dashes -= 1;
    }
    removed
}

/// End of a day: each `WAIT` that could be tried today counts one day down.
pub fn end_day(list: &mut [Queued], day: u32) {
    for q in list.iter_mut() {
        let p = q.entry.prefix;
        if let Order::Wait(n) = &mut q.entry.order
            && p.dashes == 0
            && p.day.is_none_or(|d| d == day)
        {
            *n = n.saturating_sub(1);
        }
    }
}

/// Removes every entry naming `id` (a new id never created, FILE-NEWID-LIFE).
/// Returns how many were removed. Dashes are left as they are.
pub fn purge(list: &mut Vec<Queued>, id: &str) -> usize {
    let before = list.len();
    list.retain(|q| !q.entry.order.references().contains(&id));
    before - list.len()
}

#[cfg(test)]
mod tests;
