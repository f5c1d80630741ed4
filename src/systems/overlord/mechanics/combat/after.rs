//! After the battle (§26 "Aftermath"; CMB-HEAL, CMB-FANATIC, CMB-LOOT, CMB-MARCH,
//! CMB-POST, SKL-EXP-BATTLE, RACE-HERO-PROMOTE, TTL-DEATH): what the battlefield
//! leaves is applied to the world, in this order:
//!
//! 1. each wounded figure heals, or loses one more life point and may die;
//! 2. the fanatics of the losing side all die;
//! 3. units keep their survivors; equipment beyond what the survivors can hold is
//!    unequipped; a unit with no survivor is dead;
//! 4. each dead unit leaves `loot_percent` of each of its possessions, given at
//!    random to a unit of the winning side that could still walk with it (or was
//!    already too heavy to walk); without a winner, or without such a unit, the
//!    loot falls to the ground;
//! 5. titles of dead holders are lost, or go to an untitled leader of the winning
//!    side (of the holder's own side when nobody won) able to claim them;
//! 6. survivors gain experience; leaders may become heroes;
//! 7. a marching stack that did not win retreats the way it came.

use super::field::Fought;
use super::muster::Muster;
use super::record::{AmbushRecord, BattleRecord, BattleStats, FighterRecord, SideRecord, Used};
use super::{Battles, Cause};
use crate::systems::overlord::data::{RaceKind, TitleKind};
use crate::systems::overlord::mechanics::movement::journey::send_back;
use crate::systems::overlord::mechanics::scheduler::label;
use crate::systems::overlord::mechanics::stacks::remove_unit;
use crate::systems::overlord::mechanics::stats::{CapacityTables, compute};
use crate::systems::overlord::mechanics::titles;
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{
    At, Events, Figures, Ground, Id, Inventory, Journey, Race, Skills, Titles, substack,
};
use crate::systems::overlord::world::ids::{ItemId, SkillId};
use crate::systems::overlord::world::meets;
use bevy_ecs::prelude::*;
use rand::RngExt;
use rand::rngs::ChaCha8Rng;

fn chance(rng: &mut ChaCha8Rng, percent: u32) -> bool {
    percent >= 100 || (percent > 0 && rng.random_range(0..100u32) < percent)
}

/// Applies a fought battle to the world and records it.
#[allow(clippy::needless_range_loop)] // fighters, units, survivors and deeds share indices
pub fn apply(world: &mut World, m: Muster, o: Fought, rng: &mut ChaCha8Rng) {
    let catalog = world.resource::<Catalog>().clone();
    let b = &catalog.rules.combat.battle;
    let day = m.day;
    let mut aftermath: Vec<String> = Vec::new();
    // The units of the world; creatures a spell called follow them in the armies.
    let n = m.units.len();
    // 1–2: healing and fanatics.
    let mut survivors = vec![0u32; n];
    for (i, (f, d)) in m.armies.fighters[..n].iter().zip(&o.deeds).enumerate() {
        let mut alive = heal(d.alive, d.dying, b.heal_percent, rng);
        if f.fanatic && o.winner.is_some_and(|w| w != f.side) && alive > 0 {
            aftermath.push(format!("{}: its fanatics fight to the death.", label(world, m.units[i].0)));
            alive = 0;
        }
        survivors[i] = alive;
    }
    // CMB-SPELL: the mana spent and regained in the battle.
    if let Some(mana) = catalog.mana() {
        for (i, (f, d)) in m.armies.fighters[..n].iter().zip(&o.deeds).enumerate() {
            if f.mana == d.mana {
                continue;
            }
            if let Some(mut inv) = world.get_mut::<Inventory>(m.units[i].0) {
                let have = inv.count(mana);
                if d.mana > have {
                    crate::systems::overlord::mechanics::transfer::add(&mut inv, mana, d.mana - have);
                } else {
                    crate::systems::overlord::mechanics::transfer::take(&mut inv, mana, have - d.mana);
                }
            }
        }
    }
    // MAG-COST: the components battle spells consumed.
    for (i, d) in o.deeds[..n].iter().enumerate() {
        for (tag, n) in &d.spent {
            if let (Some(item), Some(mut inv)) = (catalog.item(tag), world.get_mut::<Inventory>(m.units[i].0)) {
                crate::systems::overlord::mechanics::transfer::take(&mut inv, item, *n);
            }
        }
    }
    let place_name = label(world, m.place);
    let result = match o.winner {
        Some(0) => "the attackers won",
        Some(_) => "the defenders won",
        None => "it was a draw",
    };
    // The record, before units vanish.
    let mut sides: [SideRecord; 2] = Default::default();
    for s in 0..2u8 {
        sides[s as usize].factions =
            m.sides[s as usize].iter().map(|&f| world.get::<Id>(f).map(|i| i.0.clone()).unwrap_or_default()).collect();
    }
    let mut used = Used::default();
    for (i, f) in m.armies.fighters[..n].iter().enumerate() {
        let (u, fac) = m.units[i];
        let race = world.get::<Race>(u).map(|r| catalog.race_tag(r.0).to_string()).unwrap_or_default();
        if !used.races.contains(&race) {
            used.races.push(race.clone());
        }
        for a in &f.actions {
            if let super::field::Action::Special(s) = a {
                let list = if catalog.skill(&s.tag).is_some() { &mut used.skills } else { &mut used.items };
                if !list.contains(&s.tag) {
                    list.push(s.tag.clone());
                }
            }
        }
        let (rank, file) = o.placed[i];
        let position = format!(
            "{} {}",
            m.armies.rank_names.get(rank as usize).map_or("?", |x| x.as_str()),
            m.armies.file_names.get(file as usize).map_or("?", |x| x.as_str())
        );
        let st = &f.stats;
        sides[f.side as usize].units.push(FighterRecord {
            id: f.id.clone(),
            name: label(world, u),
            faction: world.get::<Id>(fac).map(|i| i.0.clone()).unwrap_or_default(),
            race,
            figures: f.figures,
            survivors: survivors[i],
            fled: o.deeds[i].fled,
            silent: crate::systems::overlord::world::silent(world, u),
            position,
            stats: Some(BattleStats {
                melee: st.melee,
                missile: st.missile,
                defense: st.defense,
                initiative: st.initiative,
                life: st.life,
                hits: st.hits.max(1),
                damage: st.damage.max(1),
            }),
        });
    }
    // Creatures a spell called: recorded on their caster's side, as its faction's,
    // if they came; they leave the world with the battle.
    for (f, d) in m.armies.fighters.iter().zip(&o.deeds).skip(n) {
        let Some(r) = f.reserve.as_ref().filter(|_| d.called > 0) else { continue };
        let caster = &sides[f.side as usize].units.iter().find(|x| x.id == m.armies.fighters[r.caster].id).cloned();
        if !used.races.contains(&r.race) {
            used.races.push(r.race.clone());
        }
        sides[f.side as usize].units.push(FighterRecord {
            id: f.id.clone(),
            name: format!("{} [{}]", r.name, f.id),
            faction: caster.as_ref().map(|c| c.faction.clone()).unwrap_or_default(),
            race: r.race.clone(),
            figures: d.called,
            survivors: d.alive,
            fled: d.fled,
            silent: false,
            position: "called by a spell".into(),
            stats: None,
        });
    }
    for &u in &m.refused {
        aftermath.push(format!("{} refused to fight: its faction has too many units to control.", label(world, u)));
    }
    // 3: survivors, the dead.
    let winners: Vec<usize> =
        (0..n).filter(|&i| o.winner == Some(m.armies.fighters[i].side) && survivors[i] > 0).collect();
    let mut loot: Vec<(ItemId, u32)> = Vec::new();
    let mut dead_units: Vec<(usize, Entity)> = Vec::new();
    for i in 0..n {
        let (u, _) = m.units[i];
        let lost = m.armies.fighters[i].figures - survivors[i].min(m.armies.fighters[i].figures);
        if survivors[i] == 0 {
            if let Some(inv) = world.get::<Inventory>(u) {
                // Mana dies with its mage (ITM-GIVE: it never changes hands).
                for h in inv.0.iter().filter(|h| Some(h.item) != catalog.mana()) {
                    let share = (u64::from(h.count) * u64::from(b.loot_percent) / 100) as u32;
                    if share > 0 {
                        loot.push((h.item, share));
                    }
                }
            }
            dead_units.push((i, u));
            continue;
        }
        let mut r = world.entity_mut(u);
        if lost > 0 {
            r.get_mut::<Figures>().expect("unit").0 = survivors[i];
            let mut inv = r.get_mut::<Inventory>().expect("unit");
            for h in &mut inv.0 {
                let most =
                    survivors[i].saturating_mul(catalog.rules.items[h.item.index()].system.max_per_figure.max(1));
                if h.equipped > most {
                    h.equipped = most;
                }
            }
        }
        let text = format!(
            "Fought in the battle at {place_name}: {result}; {} of {} figures survived.",
            survivors[i], m.armies.fighters[i].figures
        );
        if let Some(mut e) = world.get_mut::<Events>(u) {
            e.push(day, text);
        }
    }
    // 4: loot.
    for (item, count) in loot {
        let it = &catalog.rules.items[item.index()];
        let weight = u64::from(it.weight) * u64::from(count) * 1000;
        let eligible: Vec<usize> =
            winners.iter().copied().filter(|&i| weight == 0 || could_carry(world, m.units[i].0, weight)).collect();
        let name = catalog.items_text(item, u64::from(count));
        if eligible.is_empty() {
            let mut g = world.get_mut::<Ground>(m.place).expect("location");
            match g.0.iter_mut().find(|x| x.0 == item) {
                Some(x) => x.1 = x.1.saturating_add(count),
                None => g.0.push((item, count)),
            }
            aftermath.push(format!("Loot left on the ground: {name}."));
            continue;
        }
        let to = eligible[rng.random_range(0..eligible.len())];
        let u = m.units[to].0;
        let mut inv = world.get_mut::<Inventory>(u).expect("unit");
        match inv.0.iter_mut().find(|h| h.item == item) {
            Some(h) => h.count = h.count.saturating_add(count),
            None => inv.0.push(crate::systems::overlord::world::components::Holding { item, count, equipped: 0 }),
        }
        aftermath.push(format!("{} takes {name} as loot.", label(world, u)));
    }
    // 5: titles of the dead (TTL-DEATH).
    if !dead_units.is_empty() {
        titles_of_the_dead(world, &m, &dead_units, &survivors, o.winner, rng, &mut aftermath);
    }
    for &(i, u) in &dead_units {
        let f = m.units[i].1;
        let text = format!("{} was killed in the battle at {place_name} (day {day}).", label(world, u));
        aftermath.push(format!("{} was killed.", label(world, u)));
        if let Some(mut e) = world.get_mut::<Events>(f) {
            e.push(day, text);
        }
        if let Some(mut e) = world.get_mut::<Events>(u) {
            e.push(day, format!("Killed in the battle at {place_name}."));
        }
        remove_unit(world, u, false);
    }
    // 6: experience and heroes.
    let p = &catalog.rules.info.parameters;
    let combat = catalog.skill(&b.skills.combat);
    let melee = catalog.skill(&b.skills.melee);
    let parry = catalog.skill(&b.skills.parry);
    let hero = b.hero_race.as_deref().and_then(|r| catalog.race(r));
    for i in 0..n {
        if survivors[i] == 0 {
            continue;
        }
        let (u, _) = m.units[i];
        let d = &o.deeds[i];
        let Some(mut sk) = world.get_mut::<Skills>(u) else { continue };
        let exp_of =
            |sk: &Skills, s: Option<SkillId>| s.and_then(|s| sk.0.iter().find(|x| x.0 == s)).map_or(0, |x| x.1);
        let trained = combat.is_some_and(|c| sk.level(&catalog, c) > 0);
        let mut gains: Vec<(SkillId, u32)> = Vec::new();
        if let Some(c) = combat {
            let per = if trained { b.experience.combat_days } else { b.experience.untrained_combat_days };
            gains.push((c, d.rounds * per));
        }
        if let Some(x) = melee
            && trained
        {
            gains.push((x, d.melee_rounds * b.experience.melee_days));
        }
        if let Some(x) = parry
            && exp_of(&sk, parry) > 0
        {
            gains.push((x, d.parry_rounds * b.experience.parry_days));
        }
        for &(k, rounds) in &d.special_rounds {
            if let Some(&s) = m.trains[i].get(k) {
                gains.push((s, rounds * b.experience.action_days));
            }
        }
        for (s, days) in gains {
            let points = days.saturating_mul(p.experience_per_day);
            if points == 0 {
                continue;
            }
            match sk.0.iter_mut().find(|x| x.0 == s) {
                Some(x) => x.1 = x.1.saturating_add(points),
                None => sk.0.push((s, points)),
            }
        }
        // RACE-HERO-PROMOTE: a leader's chance is its best of melee, missile, initiative.
        let race = world.get::<Race>(u).map(|r| r.0);
        if let (Some(h), Some(r)) = (hero, race) {
            let rr = &catalog.rules.races[r.index()].system;
            if rr.kind == RaceKind::Leader && !rr.hero && r != h {
                let s = &m.armies.fighters[i].stats;
                let best = s.melee.max(s.missile).max(s.initiative).max(0) as u32;
                if chance(rng, best) {
                    world.entity_mut(u).insert(Race(h));
                    let text = format!("{} became a hero after the battle.", label(world, u));
                    aftermath.push(text.clone());
                    if let Some(mut e) = world.get_mut::<Events>(u) {
                        e.push(day, text);
                    }
                }
            }
        }
    }
    // 7: a marching stack that did not win retreats (CMB-MARCH).
    if let Some(j) = m.cause.march() {
        let marcher = match m.cause {
            Cause::March { .. } => m.attacker,
            _ => m.target,
        };
        let side = m.units.iter().position(|x| x.0 == marcher).map(|i| m.armies.fighters[i].side);
        let alive = world.get_entity(marcher).is_ok() && world.get::<Journey>(marcher).is_none();
        if let Some(side) = side
            && alive
            && o.winner != Some(side)
        {
            let group: Vec<Entity> = substack(world, marcher)
                .into_iter()
                .filter(|&x| {
                    world.get::<At>(x).is_some_and(|a| a.location == m.place) && world.get::<Journey>(x).is_none()
                })
                .collect();
            send_back(world, &group, j, "The march failed");
            aftermath.push(format!("{} retreats.", label(world, marcher)));
        }
    }
    let location = world.get::<Id>(m.place).map(|i| i.0.clone()).unwrap_or_default();
    let record = BattleRecord {
        day,
        location,
        location_name: place_name,
        cause: m.cause.word().into(),
        sides,
        ambush: AmbushRecord { ..o.ambush },
        tactics: o.tactics,
        rounds: o.rounds,
        winner: o.winner,
        ended: o.ended.into(),
        aftermath,
        used,
        detail: String::new(),
        role: String::new(),
        witnesses: m.witnesses,
    };
    world.resource_mut::<Battles>().0.push(record);
}

/// CMB-HEAL: of `alive` figures, `dying` are wounded with one life point left; each
/// heals with `percent` % or dies. The figures left.
fn heal(alive: u32, dying: u32, percent: u32, rng: &mut ChaCha8Rng) -> u32 {
    alive - (0..dying.min(alive)).filter(|_| !chance(rng, percent)).count() as u32
}

/// Whether unit `u` may take `weight` (thousandths) of loot: it could still walk
/// carrying it, or could not walk already (CMB-LOOT).
fn could_carry(world: &World, u: Entity, weight: u64) -> bool {
    let catalog = world.resource::<Catalog>();
    let tables = world.resource::<CapacityTables>();
    let r = world.entity(u);
    let (Some(race), Some(fig), Some(inv), Some(sk)) =
        (r.get::<Race>(), r.get::<Figures>(), r.get::<Inventory>(), r.get::<Skills>())
    else {
        return false;
    };
    let ef = crate::systems::overlord::world::under(world, u);
    let s = compute(catalog, tables, race.0, fig.0, inv, sk, &ef);
    let walk = s.capacity.first().copied().unwrap_or(0).saturating_mul(1000);
    s.weight_milli > walk || s.weight_milli.saturating_add(weight) <= walk
}

/// TTL-DEATH: each title a dead unit held is lost by chance, or goes free of cost to
/// an untitled leader able to claim it, of the winning side (or of the holder's
/// side when nobody won).
fn titles_of_the_dead(
    world: &mut World,
    m: &Muster,
    dead: &[(usize, Entity)],
    survivors: &[u32],
    winner: Option<u8>,
    rng: &mut ChaCha8Rng,
    aftermath: &mut Vec<String>,
) {
    let catalog = world.resource::<Catalog>().clone();
    let b = &catalog.rules.combat.battle;
    let holders = titles::held_titles(world);
    let mut held: Vec<(Entity, usize, usize, usize)> = Vec::new(); // (location, slot, title, dead fighter)
    for &(i, u) in dead {
        let Some(id) = world.get::<Id>(u) else { continue };
        for &(l, slot) in holders.get(id.0.as_str()).map_or(&[][..], |v| v.as_slice()) {
            let ti = world.get::<Titles>(l).map_or(usize::MAX, |t| t.0[slot].0);
            held.push((l, slot, ti, i));
        }
    }
    titles::put_back(world, holders);
    for (l, slot, ti, i) in held {
        let title = &catalog.rules.titles[ti];
        let side = winner.unwrap_or(m.armies.fighters[i].side);
        let candidates: Vec<Entity> = (0..m.units.len())
            .filter(|&k| m.armies.fighters[k].side == side && survivors[k] > 0 && m.armies.fighters[k].leader)
            .map(|k| m.units[k].0)
            .filter(|&u| titles::title_of(world, u).is_none() && meets(world, u, &title.skill))
            .collect();
        let heir = if title.kind == TitleKind::Overlord {
            // TTL-OVERLORD: "claimed in battle by the leader with the highest combat
            // experience" (the title's skill), never lost by chance; the first in
            // the muster's order among equals.
            let skill = catalog.skill(&title.skill.skill);
            let points = |u: Entity| {
                world.get::<Skills>(u).and_then(|s| s.0.iter().find(|x| Some(x.0) == skill).map(|x| x.1)).unwrap_or(0)
            };
            candidates.iter().copied().rev().max_by_key(|&u| points(u))
        } else if !chance(rng, b.title_loss_percent) && !candidates.is_empty() {
            Some(candidates[rng.random_range(0..candidates.len())])
        } else {
            None
        };
        titles::set_holder(world, l, slot, heir);
        let place = label(world, l);
        aftermath.push(match heir {
            Some(u) => format!("The title of {} of {place} passes to {}.", title.name, label(world, u)),
            None => format!("The title of {} of {place} is lost.", title.name),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::heal;
    use rand::SeedableRng;
    use rand::rngs::ChaCha8Rng;

    #[test]
    fn each_dying_figure_heals_with_the_rule_sets_chance_cmb_heal() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        // 20,000 dying of 30,000: half of them (heal_percent 50) live.
        let left = heal(30_000, 20_000, 50, &mut rng);
        assert!((left as i64 - 20_000).abs() < 400, "{left}");
        let left = heal(30_000, 20_000, 80, &mut rng);
        assert!((left as i64 - 26_000).abs() < 400, "{left}");
        assert_eq!(heal(10, 4, 0, &mut rng), 6);
        assert_eq!(heal(10, 4, 100, &mut rng), 10);
    }
}
