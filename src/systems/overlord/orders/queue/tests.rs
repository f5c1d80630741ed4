//! The rules' worked examples of order lists (PFX-*, TV-ORDERS), run on a toy unit:
//! what the unit holds, who is present, and a log of what it did each day.

use super::*;
use crate::systems::overlord::orders::Vocabulary;
use crate::systems::overlord::orders::fixture::Words;
use crate::systems::overlord::orders::line::parse_entry;
use crate::systems::overlord::orders::syntax::Order;
use std::collections::BTreeMap;

#[derive(Default)]
struct Toy {
    items: BTreeMap<String, u32>,
    present: Vec<String>,
    figures: u32,
    level: u32,
    log: Vec<(u32, String)>,
    /// Day → units arriving that day.
    arrivals: BTreeMap<u32, Vec<String>>,
    /// Day → figures the unit has from that day.
    growth: BTreeMap<u32, u32>,
    /// Days of study needed per level of the studied skill.
    days_per_level: u32,
    studied: u32,
}

fn list(lines: &[&str]) -> Vec<Queued> {
    lines.iter().map(|l| Queued::new(parse_entry(l, &Words).unwrap_or_else(|e| panic!("{l}: {e}")))).collect()
}

fn text(list: &[Queued]) -> Vec<String> {
    list.iter().map(|q| q.entry.written(&Words).to_string()).collect()
}

impl Toy {
    fn try_order(&mut self, day: u32, order: &mut Order) -> Outcome {
        let w = Words;
        match order {
            Order::Have { item, count } => {
                if self.items.get(w.item_tag(*item)).copied().unwrap_or(0) >= *count {
                    Outcome::Ran(Progress::Step)
                } else {
                    Outcome::NotNow
                }
            }
            Order::Give { to, item, count, .. } => {
                if self.present.contains(to) {
                    self.log.push((day, format!("give {to} {} {}", count.unwrap_or(0), w.item_tag(*item))));
                    Outcome::Ran(Progress::Step)
                } else {
                    Outcome::NotNow
                }
            }
            Order::Day(n) => {
                if *n == day {
                    Outcome::Ran(Progress::Step)
                } else {
                    Outcome::NotNow
                }
            }
            Order::Size(n) => {
                if self.figures >= *n {
                    Outcome::Ran(Progress::Step)
                } else {
                    Outcome::NotNow
                }
            }
            Order::Wait(n) => {
                if *n == 0 {
                    Outcome::Ran(Progress::Step)
                } else {
                    Outcome::NotNow
                }
            }
            Order::Study { skill, level } => {
                if w.skill_tag(*skill) == "lumb" {
                    return Outcome::Invalid("this unit can never study lumb".into());
                }
                self.studied += 1;
                self.level = self.studied.checked_div(self.days_per_level).unwrap_or(0);
                self.log.push((day, "study".into()));
                match level {
                    Some(l) if self.level >= *l => Outcome::Ran(Progress::Done),
                    Some(_) => Outcome::Ran(Progress::Continue),
                    None => Outcome::Ran(Progress::Step),
                }
            }
            Order::Use { count, .. } => {
                *self.items.entry("coin".into()).or_default() += 1;
                self.log.push((day, "use".into()));
                match count {
                    Some(c) if self.items["coin"] >= *c => Outcome::Ran(Progress::Done),
                    _ => Outcome::Ran(Progress::Step),
                }
            }
            Order::Move(_) => {
                self.log.push((day, format!("move {}", order_text(order))));
                Outcome::Ran(Progress::Step)
            }
            Order::Pillage => {
                self.log.push((day, "pillage".into()));
                Outcome::Ran(Progress::Step)
            }
            Order::Name(n) => {
                self.log.push((day, format!("name {n}")));
                Outcome::Ran(Progress::Step)
            }
            Order::Unreadable { reason, .. } => Outcome::Invalid(reason.clone()),
            _ => Outcome::NotNow,
        }
    }

    /// Runs `days` days of the toy unit's list, as the scheduler does.
    fn run(&mut self, list: &mut Vec<Queued>, days: u32) {
        for day in 1..=days {
            if let Some(a) = self.arrivals.remove(&day) {
                self.present.extend(a);
            }
            if let Some(&f) = self.growth.get(&day) {
                self.figures = f;
            }
            while run_one(list, day, Pass::Immediate, |e| self.try_order(day, &mut e.order)).ran {}
            run_one(list, day, Pass::FullDay, |e| self.try_order(day, &mut e.order));
            end_day(list, day);
        }
    }

    fn days_of(&self, what: &str) -> Vec<u32> {
        self.log.iter().filter(|(_, w)| w.starts_with(what)).map(|(d, _)| *d).collect()
    }
}

fn order_text(order: &Order) -> String {
    crate::systems::overlord::orders::syntax::Entry { prefix: Default::default(), order: order.clone() }
        .written(&Words)
        .to_string()
}

#[test]
fn undash_chain_waits_for_each_giver_pfx_undash() {
    // PFX-UNDASH, TV-ORDERS: a arrives on day 3, b never does.
    let mut l = list(&["GIVE U1 item 1", "-5 STUDY s", "GIVE U2 item 1", "-MOVE S"]);
    let mut toy = Toy { arrivals: BTreeMap::from([(3, vec!["U1".to_string()])]), ..Toy::default() };
    toy.run(&mut l, 30);
    assert_eq!(toy.days_of("give U1"), [3]);
    assert_eq!(toy.days_of("study"), [3, 4, 5, 6, 7]);
    assert!(toy.days_of("move").is_empty());
    assert_eq!(text(&l), ["GIVE U2 item 1", "-MOVE S"]);

    // If b comes on day 12, the unit moves south that day.
    let mut l = list(&["GIVE U1 item 1", "-5 STUDY s", "GIVE U2 item 1", "-MOVE S"]);
    let mut toy =
        Toy { arrivals: BTreeMap::from([(3, vec!["U1".to_string()]), (12, vec!["U2".to_string()])]), ..Toy::default() };
    toy.run(&mut l, 30);
    assert_eq!(toy.days_of("move"), [12]);
    assert!(l.is_empty());
}

#[test]
fn combined_conditions_run_in_sequence_pfx_undash() {
    // HAVE item 2 / -GIVE b item 1 / --MOVE N: waits for 2 items, then for b, then moves.
    let mut l = list(&["HAVE item 2", "-GIVE U2 item 1", "--MOVE N"]);
    let mut toy = Toy { arrivals: BTreeMap::from([(2, vec!["U2".to_string()])]), ..Toy::default() };
    toy.run(&mut l, 4);
    assert!(toy.log.is_empty(), "nothing happens before the items are there");
    assert_eq!(text(&l), ["HAVE item 2", "-GIVE U2 item 1", "--MOVE N"]);
    toy.items.insert("item".into(), 2);
    for day in 5..=6 {
        while run_one(&mut l, day, Pass::Immediate, |e| toy.try_order(day, &mut e.order)).ran {}
        run_one(&mut l, day, Pass::FullDay, |e| toy.try_order(day, &mut e.order));
    }
    assert_eq!(toy.days_of("give U2"), [5]);
    assert_eq!(toy.days_of("move"), [5], "the move is undashed by the GIVE and runs the same day");
    assert!(l.is_empty());
}

#[test]
fn plus_gives_an_otherwise_branch_pfx_plus() {
    // HAVE item 2 / +@USE s / -MOVE N: uses the skill until 2 items are held, then moves.
    // (The toy's USE makes a coin; the condition counts coins.)
    let mut l = list(&["HAVE coin 2", "+@USE s", "-MOVE N"]);
    let mut toy = Toy::default();
    toy.run(&mut l, 5);
    assert_eq!(toy.days_of("use"), [1, 2]);
    assert_eq!(toy.days_of("move"), [3]);
    assert!(l.is_empty());
}

#[test]
fn plus_removal_stops_at_the_next_plain_order() {
    // Our reading of PFX-PLUS (docs/orders.md): only the alternatives of this block go.
    // The `+` orders of DAY 1's block go; DAY 2's alternative stays (and, being
    // considered normally, runs).
    let mut l = list(&["DAY 1", "+NAME \"a\"", "-NAME \"b\"", "+NAME \"c\"", "DAY 2", "+@NAME \"d\""]);
    let mut toy = Toy::default();
    toy.run(&mut l, 1);
    assert_eq!(toy.log, [(1, "name b".to_string()), (1, "name d".to_string())]);
    assert_eq!(text(&l), ["DAY 2", "+@NAME \"d\""]);
}

#[test]
fn a_day_restriction_that_can_never_hold_stays_forever_pfx_day() {
    // TV-ORDERS: D10 DAY 15 never runs and is never removed; it keeps what follows dashed.
    let mut l = list(&["D10 DAY 15", "-NAME \"x\""]);
    let mut toy = Toy::default();
    toy.run(&mut l, 30);
    assert!(toy.log.is_empty());
    assert_eq!(text(&l), ["D10 DAY 15", "-NAME \"x\""]);
    // …while D15 DAY 15 runs on day 15.
    let mut l = list(&["D15 DAY 15", "-NAME \"x\""]);
    toy.run(&mut l, 30);
    assert_eq!(toy.log, [(15, "name x".to_string())]);
}

#[test]
fn a_stop_condition_ends_a_duration_early_pfx_stop() {
    // TV-ORDERS: 10 STUDY cmbt 1 = 10 days or until level 1, whichever comes first.
    let mut l = list(&["10 STUDY cmbt 1", "NAME \"after\""]);
    let mut toy = Toy { days_per_level: 4, ..Toy::default() };
    toy.run(&mut l, 30);
    assert_eq!(toy.days_of("study"), [1, 2, 3, 4]);
    assert!(l.is_empty());
    // Without reaching the level, the ten days end it.
    let mut l = list(&["10 STUDY cmbt 1"]);
    let mut toy = Toy { days_per_level: 40, ..Toy::default() };
    toy.run(&mut l, 30);
    assert_eq!(toy.days_of("study").len(), 10);
    assert!(l.is_empty());
    // STUDY to a level with no duration repeats by itself (ORD-STUDY).
    let mut l = list(&["STUDY cmbt 2"]);
    let mut toy = Toy { days_per_level: 3, ..Toy::default() };
    toy.run(&mut l, 30);
    assert_eq!(toy.days_of("study").len(), 6);
    assert!(l.is_empty());
}

#[test]
fn size_then_pillage_otherwise_study_tv_orders() {
    // SIZE 50 / -@PILLAGE / +30 STUDY CMBT: studies until the unit has 50 figures, then
    // pillages every day; the study alternative is gone.
    let mut l = list(&["SIZE 50", "-@PILLAGE", "+30 STUDY CMBT"]);
    let mut toy = Toy { figures: 30, growth: BTreeMap::from([(6, 50)]), ..Toy::default() };
    toy.run(&mut l, 10);
    assert_eq!(toy.days_of("study"), [1, 2, 3, 4, 5]);
    assert_eq!(toy.days_of("pillage"), [6, 7, 8, 9, 10]);
    assert_eq!(text(&l), ["@PILLAGE"]);
}

#[test]
fn durations_count_down_and_are_written_back_pfx_dur() {
    // PFX-DUR: `10 USE digg` half done shows `5 USE digg`.
    let mut l = list(&["10 USE digg"]);
    let mut toy = Toy::default();
    toy.run(&mut l, 5);
    assert_eq!(text(&l), ["5 USE digg"]);
    // One-shot orders ignore a duration.
    let mut l = list(&["3 NAME \"x\""]);
    toy.run(&mut l, 5);
    assert!(l.is_empty());
    assert_eq!(toy.days_of("name"), [1]);
}

#[test]
fn repeat_runs_once_a_day_and_stays_pfx_repeat() {
    // PFX-REPEAT, SCH-IMM: @GIVE gives once a day, however many passes the day has.
    let mut l = list(&["@GIVE U1 item 1", "@NAME \"n\""]);
    let mut toy = Toy { present: vec!["U1".into()], ..Toy::default() };
    toy.run(&mut l, 3);
    assert_eq!(toy.days_of("give"), [1, 2, 3]);
    assert_eq!(toy.days_of("name"), [1, 2, 3]);
    assert_eq!(l.len(), 2);
    // A condition ignores @ and leaves once true.
    let mut l = list(&["@DAY 2", "-NAME \"x\""]);
    toy.log.clear();
    toy.run(&mut l, 5);
    assert_eq!(toy.log, [(2, "name x".to_string())]);
    assert!(l.is_empty());
}

#[test]
fn an_invalid_order_leaves_and_undashes_pfx_remove() {
    // PFX-REMOVE: a STUDY the unit can never learn is removed, and the next order
    // loses its dash.
    let mut l = list(&["STUDY lumb", "-NAME \"x\"", "--NAME \"y\""]);
    let mut toy = Toy::default();
    let mut invalid = Vec::new();
    for day in 1..=2 {
        loop {
            let r = run_one(&mut l, day, Pass::Immediate, |e| toy.try_order(day, &mut e.order));
            invalid.extend(r.invalid);
            if !r.ran {
                break;
            }
        }
        let r = run_one(&mut l, day, Pass::FullDay, |e| toy.try_order(day, &mut e.order));
        invalid.extend(r.invalid);
    }
    assert_eq!(invalid.len(), 1);
    assert_eq!(invalid[0].1, "this unit can never study lumb");
    // Day 1: STUDY removed in the full-day pass, NAME x undashed; day 2: NAME x runs,
    // which undashes NAME y, which runs in the next pass of the same day.
    assert_eq!(toy.log, [(2, "name x".to_string()), (2, "name y".to_string())]);
    assert!(l.is_empty());
}

#[test]
fn dashed_orders_are_not_considered_pfx_dash() {
    let mut l = list(&["-NAME \"x\"", "-@PILLAGE"]);
    let mut toy = Toy::default();
    toy.run(&mut l, 30);
    assert!(toy.log.is_empty());
    assert_eq!(l.len(), 2);
}

#[test]
fn wait_counts_days_then_lets_the_next_order_run_ord_wait() {
    // ORD-WAIT: WAIT 10 / -MOVE N moves once ten days have passed, on day 11.
    let mut l = list(&["WAIT 10", "-MOVE N"]);
    let mut toy = Toy::default();
    toy.run(&mut l, 5);
    assert_eq!(text(&l), ["WAIT 5", "-MOVE N"], "the remaining wait is written back");
    toy.run(&mut l, 0);
    let mut l = list(&["WAIT 10", "-MOVE N"]);
    let mut toy = Toy::default();
    toy.run(&mut l, 30);
    assert_eq!(toy.days_of("move"), [11]);
}

#[test]
fn purge_removes_every_order_naming_a_new_id() {
    // FILE-NEWID-LIFE.
    let mut l = list(&["GIVE f01nU01 item 1", "NAME \"x\"", "SEE f01nU01", "-STACK f01nU01"]);
    assert_eq!(purge(&mut l, "f01nU01"), 3);
    assert_eq!(text(&l), ["NAME \"x\""]);
}

#[test]
fn a_created_new_id_is_renamed_in_every_order_naming_it_file_newid_life() {
    let mut l = list(&["GIVE f01nU01 item 1", "-STACK f01nU01", "30 TEACH f01nU01 cmbt U7 s", "ENTER f01nB01"]);
    for q in &mut l {
        q.entry.order.rename_reference("f01nU01", "U99");
    }
    assert_eq!(text(&l), ["GIVE U99 item 1", "-STACK U99", "30 TEACH U99 cmbt U7 s", "ENTER f01nB01"]);
    assert_eq!(l[2].entry.order.references(), ["U99", "U7"]);
    assert_eq!(l[3].entry.order.references(), ["f01nB01"]);
}

#[test]
fn an_order_that_cannot_run_before_a_day_sleeps_until_then_and_wakes_next_month() {
    // A handler that knows the order cannot run before day 15 (a market day) says
    // so on day 1: the order is not tried on days 2 to 14, is on day 15, and the
    // order after it runs meanwhile. A new month wakes it.
    let mut l = list(&["@BUY 1 swrd", "@WORK"]);
    let mut tried = Vec::new();
    for day in 1..=15 {
        run_one(&mut l, day, Pass::Immediate, |e| {
            tried.push(day);
            if matches!(e.order, Order::Buy { .. }) && day < 15 {
                Outcome::NotUntil(15)
            } else {
                Outcome::Ran(Progress::Step)
            }
        });
    }
    assert_eq!(tried, [1, 15]);
    assert!(l[0].asleep(14) && !l[0].asleep(15));
    l[0].wake_on = 30;
    l.iter_mut().for_each(Queued::new_month);
    assert!(!l[0].asleep(1) && l[0].considered(1));
}

/// What a run says of the list's shape (`Report::reshaped`, which the scheduler
/// marks the unit's list changed by): an order that waits, or runs and stays
/// (repeated), leaves the list's entries as they were; one that finishes, one
/// removed as invalid and one that becomes another order change them.
#[test]
fn a_run_says_whether_the_lists_entries_changed() {
    let ran = |lines: &[&str], outcome: Outcome| {
        let mut l = list(lines);
        run_one(&mut l, 1, Pass::FullDay, |_| outcome.clone())
    };
    assert!(!ran(&["WORK"], Outcome::NotNow).reshaped);
    assert!(!ran(&["WORK"], Outcome::NotUntil(3)).reshaped);
    assert!(!ran(&["@WORK"], Outcome::Ran(Progress::Step)).reshaped);
    assert!(ran(&["WORK"], Outcome::Ran(Progress::Done)).reshaped);
    assert!(ran(&["WORK", "STUDY cmbt"], Outcome::Invalid("no".into())).reshaped);
    let mut l = list(&["@WORK"]);
    let r = run_one(&mut l, 1, Pass::FullDay, |e| {
        e.order = Order::Wait(2);
        Outcome::Ran(Progress::Step)
    });
    assert!(r.reshaped && r.ran);
}
