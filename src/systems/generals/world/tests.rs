//! A scenario spawned into the ECS and extracted again is the same scenario.

use super::{At, Directory, Troop, build, extract};
use crate::systems::generals::data::Relation;
use crate::systems::generals::fixture::{a_row, rules};
use crate::systems::generals::generate::{Options, generate};
use bevy_ecs::world::World;

#[test]
fn a_scenario_spawned_and_extracted_is_the_same() {
    let r = rules();
    let mut demo = generate(&r, &Options { regions: 48, players: 4, troops: 24, seed: 7 }).unwrap();
    demo.players[0].relations.insert("p3".into(), Relation::Ally);
    demo.players[2].relations.insert("p1".into(), Relation::Ally);
    demo.generals[0].champion = Some("T1".into());
    demo.regions[0].prepared_by = Some(demo.generals[0].name.clone());
    for s in [a_row(), demo] {
        let mut w = World::new();
        build(&mut w, &r, s.clone()).unwrap();
        assert_eq!(extract(&w, &r), s);
    }
}

#[test]
fn references_are_entities_and_ids_are_found_in_any_case() {
    let r = rules();
    let mut w = World::new();
    build(&mut w, &r, a_row()).unwrap();
    let dir = w.resource::<Directory>();
    let t1 = dir.troop("t1").unwrap();
    assert_eq!(w.get::<At>(t1).unwrap().0, dir.region("R1").unwrap());
    let kind = w.get::<Troop>(t1).unwrap().kind;
    assert_eq!(r.troops[kind].tag, "mili");
    assert!(dir.general("ANN").is_some() && dir.player("P2").is_some());
}

#[test]
fn a_state_with_broken_references_is_refused_with_each() {
    let r = rules();
    let mut s = a_row();
    s.troops[0].region = "R99".into();
    s.generals[0].skills.insert("fly".into(), 1);
    let mut w = World::new();
    let e = build(&mut w, &r, s).unwrap_err();
    assert_eq!(e.len(), 2, "{e:?}");
    assert!(e[0].contains("troop unit T1") && e[1].contains("unknown skill 'fly'"), "{e:?}");
}
