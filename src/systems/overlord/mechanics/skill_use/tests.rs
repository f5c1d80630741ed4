//! USE and TARGET on a tiny world of Overlord's data.

use crate::systems::overlord::testkit::Tiny;

#[test]
fn use_needs_the_skill_and_a_combat_spell_is_used_only_in_battle_ord_use() {
    // Fire wall [fwal] is a combat spell (use_kind Combat); U1 does not know
    // carpentry.
    let mut g = Tiny::new()
        .faction("fa")
        .location("L1", "plai")
        .unit("U1", "fa", "ldr", 1, "L1")
        .skills(&[("mage", 3000), ("fwal", 12000)])
        .items(&[("mana", 20)])
        .build();
    g.orders("fa", "UNIT U1\nUSE fwal\nUSE carp\n");
    g.days(1);
    assert!(
        g.said("U1", "USE fwal: removed from the orders: fire wall [fwal] is used only in battle"),
        "{:?}",
        g.events("U1")
    );
    assert!(g.said("U1", "USE carp: removed from the orders: the unit does not know"), "{:?}", g.events("U1"));
}

#[test]
fn every_kind_of_use_in_the_data_has_its_mechanic() {
    // USES: every use_kind of the alpha rule set but Combat is carried out.
    let e = crate::systems::overlord::testkit::engine(crate::systems::overlord::testkit::alpha());
    let h = e.world().resource::<super::UseHandlers>();
    let c = e.world().resource::<crate::systems::overlord::world::Catalog>();
    for s in &c.rules.skills {
        if let Some(k) = s.system.use_kind {
            let carried = h.get(k).is_some();
            assert_eq!(carried, k != crate::systems::overlord::data::UseKind::Combat, "{} {k:?}", s.tag);
        }
    }
}

#[test]
fn a_target_naming_nothing_is_kept_and_the_state_stays_valid_ord_target() {
    // ORD-TARGET: a target is kept as given, "if no valid targets are selected,
    // the skill cannot be used at all". A target may name a place that is not
    // there, or a unit gone by the month's end; the saved state holds it and the
    // next month plays on it.
    let mut g = Tiny::new()
        .faction("fa")
        .location("L1", "plai")
        .unit("U1", "fa", "ldr", 1, "L1")
        .unit("U2", "fa", "man", 1, "L1")
        .unit("U3", "fa", "ldr", 1, "L1")
        .build();
    g.orders("fa", "UNIT U1\nTARGET U2\nUNIT U2\nDISBAND CONFIRM\nUNIT U3\nTARGET L0\n");
    g.run();
    use crate::systems::overlord::world::components::SkillTarget;
    assert_eq!(g.get::<SkillTarget>("U1").0.as_deref(), Some("U2"));
    assert_eq!(g.get::<SkillTarget>("U3").0.as_deref(), Some("L0"));
    assert!(
        g.engine
            .world()
            .resource::<crate::systems::overlord::world::resources::Directory>()
            .get(crate::systems::overlord::world::resources::Kind::Unit, "U2")
            .is_none()
    );
    g.run();
}
