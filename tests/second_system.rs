//! A toy rule system defined only here, run by the core: the seam between the core
//! and a rule system is real. Its rule set is one core table (items, with nothing
//! of its own: `Item<()>`) with its turn plan; its state is a count per item; its
//! order language has one order (`ADD item n`); its turn has one tick.

use bevy_app::App;
use bevy_ecs::prelude::*;
use overlord::core::data::tables::Item;
use overlord::core::engine::plan::{PlanApp, TurnPlan};
use overlord::core::engine::{Engine, Submissions, Threads};
use overlord::core::orders::mail::{Grammar, Header, parse_mail};
use overlord::core::orders::text::{Args, keyword_of};
use overlord::core::system::RuleSystem;
use std::sync::Arc;

/// The rule set: the plan, and the items counted.
#[derive(serde::Deserialize)]
struct Rules {
    plan: TurnPlan,
    items: Vec<Item<()>>,
}

/// An order file: the `ADD` orders of one player, with their lines.
#[derive(Clone)]
struct Adds(Vec<(usize, String, i64)>);

/// The counters as they stand.
#[derive(Resource)]
struct Counts(Vec<(String, i64)>);

struct Counters;

impl RuleSystem for Counters {
    const NAME: &'static str = "counters";
    type Rules = Rules;
    type State = Vec<(String, i64)>;
    type Orders = Adds;
    fn plan(rules: &Rules) -> &TurnPlan {
        &rules.plan
    }
    fn plugins(app: &mut App, _: &Arc<Rules>) {
        app.add_step_system("add", add);
    }
    fn build(world: &mut World, rules: &Arc<Rules>, state: Self::State) -> Result<(), Vec<String>> {
        let unknown: Vec<String> = state
            .iter()
            .filter(|(tag, _)| !rules.items.iter().any(|i| i.tag == *tag))
            .map(|(tag, _)| format!("'{tag}' is not an item of this rule set"))
            .collect();
        if !unknown.is_empty() {
            return Err(unknown);
        }
        world.insert_resource(Counts(state));
        Ok(())
    }
    fn extract(world: &World) -> Self::State {
        world.resource::<Counts>().0.clone()
    }
}

/// The one mechanic: every ADD of the turn's order files, in order.
fn add(files: Res<Submissions<Adds>>, mut counts: ResMut<Counts>) {
    for (_, name, n) in files.0.iter().flat_map(|f| &f.0) {
        if let Some(c) = counts.0.iter_mut().find(|c| c.0 == *name) {
            c.1 += n;
        }
    }
}

/// The order language: `ADD counter n`, one per line.
struct AddGrammar;

impl Grammar for AddGrammar {
    type File = Adds;
    fn start(&self, _: Header) -> Adds {
        Adds(Vec::new())
    }
    fn line(&self, file: &mut Adds, line: usize, text: &str) {
        let (kw, rest) = keyword_of(text);
        let mut a = Args::new("ADD", rest);
        if let (true, Ok(name), Ok(n)) = (kw == "ADD", a.next("a counter"), a.number("an amount")) {
            file.0.push((line, name.to_string(), i64::from(n)));
        }
    }
}

const RULES: &str = r#"(
  plan: (tick: "turn", ticks: 1, each_tick: ["add"]),
  items: [(tag: "gold", name: "gold", weight: 1), (tag: "wood", name: "wood", weight: 5)],
)"#;

#[test]
fn a_toy_rule_system_runs_through_the_core() {
    let rules: Rules = ron::from_str(RULES).unwrap();
    assert_eq!(rules.items[1].weight, 5);
    let start = vec![("gold".to_string(), 10), ("wood".to_string(), 0)];
    let mut e = Engine::<Counters>::new(Arc::new(rules), start, Threads::One).unwrap();
    let mail = parse_mail("Dear GM\nGAME p1 secret\nADD gold 5\n# a comment\nADD wood 2\nEND\n", &AddGrammar).unwrap();
    assert_eq!(mail.orders[0].0, [(3, "gold".to_string(), 5), (5, "wood".to_string(), 2)]);
    e.submit(mail.orders);
    e.run_turn(|_, _| {});
    assert_eq!(e.state(), [("gold".to_string(), 15), ("wood".to_string(), 2)]);
    assert_eq!(e.steps().systems("add").len(), 1);
}

#[test]
fn a_toy_plan_with_a_step_no_mechanic_runs_is_refused() {
    let text = RULES.replace(r#"["add"]"#, r#"["add", "trade"]"#);
    let rules: Rules = ron::from_str(&text).unwrap();
    let plan = TurnPlan::from_ron(&ron::to_string(&rules.plan).unwrap(), "toy/plan.ron").unwrap();
    let rules = Rules { plan, ..rules };
    let err = Engine::<Counters>::new(Arc::new(rules), Vec::new(), Threads::One).err().unwrap();
    assert!(err[0].contains("step \"trade\" has no system"), "{err:?}");
}

#[test]
fn a_toy_state_naming_an_item_its_rules_lack_is_refused() {
    let rules: Rules = ron::from_str(RULES).unwrap();
    let err = Engine::<Counters>::new(Arc::new(rules), vec![("iron".into(), 1)], Threads::One).err().unwrap();
    assert_eq!(err, ["'iron' is not an item of this rule set"]);
}
