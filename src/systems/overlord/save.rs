//! A turn's state written from the world a part at a time
//! ([`GameSystem::write_state`]): the game, the factions and the structures are
//! extracted whole, the places and units a part at a time, each part written and
//! let go before the next; the mail index's records are made from the same
//! parts as they are written, each faction's units record a unit at a time. So a
//! big world's state is never held whole beside the world (a million units are
//! about a gigabyte extracted, their 200,000 places a quarter of that), and the
//! files and records are, byte for byte, what [`world::extract`], [`data::scenario_files`]
//! and [`check::records::records`] make of the whole state (tested).

use crate::core::game::index::{FactionRecord, GameRecord};
use crate::core::game::{StateOut, StateSummary};
use crate::core::system::GameSystem;
use crate::systems::overlord::Overlord;
use crate::systems::overlord::check::records::{Brief, PutRecords, UnitRecords};
use crate::systems::overlord::data::{self, RuleSet};
use crate::systems::overlord::world::components::{At, Id, Owner, Race, Titles};
use crate::systems::overlord::world::resources::Directory;
use crate::systems::overlord::world::{self, Catalog};
use bevy_ecs::prelude::*;

/// Units (and locations) extracted and written at a time: a part's records and
/// text are about a megabyte, and the next part reuses the memory of the last.
/// (Parts of 16,384 held most of a 27,500-unit world's units at once, each page
/// of them faulted in afresh: docs/performance.md.)
pub const UNITS_PER_PART: usize = 2_048;

/// Writes the state of `world` through `out`, and makes its mail index records.
pub fn write_state(world: &World, out: &mut StateOut<'_, '_, RuleSet>) -> std::io::Result<StateSummary> {
    write_in_parts(world, out, UNITS_PER_PART)
}

fn write_in_parts(
    world: &World,
    out: &mut StateOut<'_, '_, RuleSet>,
    per_part: usize,
) -> std::io::Result<StateSummary> {
    let mut head = world::extract_top(world);
    // Passwords are written hashed, whatever the world held.
    let (name, turn) = (head.game.name.clone(), head.game.turn);
    crate::core::secret::seal(Overlord::passwords_mut(&mut head), &name, turn);
    let locations_file = data::load::STATE_FILES[2];
    for (file, bytes) in data::load::head_files(&head)? {
        if file != locations_file {
            out.file(file, bytes)?;
        }
    }
    let dir = world.resource::<Directory>();
    let (locations, units) = (&dir.locations, dir.units());
    let game = GameRecord { name: head.game.name.clone(), title: head.game.title.clone(), turn: head.game.turn };
    let factions: Vec<FactionRecord> = Overlord::factions(&head).into_iter().map(FactionRecord::from).collect();
    let catalog = world.resource::<Catalog>();
    let briefs = |i: usize| brief(world, catalog, units[i]);
    // The units that hold titles: a few, where every unit would be a big map.
    let holders: std::collections::BTreeSet<&str> = locations
        .iter()
        .filter_map(|&l| world.get::<Titles>(l))
        .flat_map(|t| &t.0)
        .filter_map(|t| t.1.as_deref())
        .collect();
    let holds_title = |id: &str| holders.contains(id);
    out.begin_records(game.clone(), factions.clone())?;
    let mut put = out.with_records(|sys| PutRecords::new(&head, holds_title, units.len(), briefs, sys))?;
    // The places' records are made from the parts their file is written from.
    in_parts(
        out,
        locations,
        per_part,
        data::load::LOCATIONS_DEPTH,
        |out, part| {
            let records = world::extract_locations(world, part);
            if let Some(p) = put.as_mut()
                && out.with_records(|sys| p.locations(&records, sys))?.is_none()
            {
                put = None;
            }
            Ok(records)
        },
        |out, bytes| out.part(locations_file, bytes),
        drop,
    )?;
    let units_file = data::load::STATE_FILES[4];
    // The units file and the index's units are made from the same records, a
    // part at a time, each faction's record a unit at a time as its units come
    // ([`UnitRecords`]): with a writing thread, the units file on a thread of
    // its own, its parts' records sent to the index as they are written.
    // The index's records of places done, and its units' to make (none once
    // the index gave up), with whether every unit given was taken.
    let mut index = put.map(|p| {
        let units = p.unit_records();
        (p, units, Ok(()))
    });
    match out.parts_beside() {
        Some(mut beside) => {
            let (parts, written) = std::sync::mpsc::sync_channel::<Vec<data::Unit>>(2);
            std::thread::scope(|s| {
                let file = s.spawn(move || {
                    let kept = |records| {
                        // An index that gave up takes no more: the file goes on.
                        let _ = parts.send(records);
                    };
                    let write = |b: &mut crate::core::game::StateParts<'_>, bytes| b.part(units_file, bytes);
                    in_parts(&mut beside, units, per_part, data::load::UNITS_DEPTH, units_of(world), write, kept)
                });
                // The receiver goes with the index, so that a file with parts the
                // index does not want is not kept waiting.
                let indexed = {
                    if let Some((_, records, added)) = index.as_mut() {
                        while let Ok(part) = written.recv() {
                            *added = records.add(&part);
                            if added.is_err() {
                                break;
                            }
                        }
                    }
                    drop(written);
                    finish_index(out, index)
                };
                let done = file.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
                done.and(indexed)
            })?
        }
        None => {
            let kept = |part: Vec<data::Unit>| {
                if let Some((_, records, added @ Ok(()))) = index.as_mut() {
                    *added = records.add(&part);
                }
            };
            let write = |out: &mut StateOut<'_, '_, RuleSet>, bytes| out.part(units_file, bytes);
            in_parts(out, units, per_part, data::load::UNITS_DEPTH, units_of(world), write, kept)?;
            finish_index(out, index)?;
        }
    }
    Ok(StateSummary { game, factions, units: units.len() })
}

/// The units' records of a part, for [`in_parts`] whatever it writes to.
fn units_of<C>(world: &World) -> impl FnMut(&mut C, &[Entity]) -> std::io::Result<Vec<data::Unit>> + '_ {
    move |_, part| Ok(world::extract_units(world, part))
}

/// Writes a list file a part at a time: the records `extract` makes of
/// `entities`, `per_part` at a time, each part given to `write` in order and let
/// go once written. `cx` is what both work with (the state's writer).
fn in_parts<C, T: serde::Serialize>(
    cx: &mut C,
    entities: &[Entity],
    per_part: usize,
    depth: usize,
    mut extract: impl FnMut(&mut C, &[Entity]) -> std::io::Result<Vec<T>>,
    mut write: impl FnMut(&mut C, Vec<u8>) -> std::io::Result<()>,
    mut keep: impl FnMut(Vec<T>),
) -> std::io::Result<()> {
    use crate::core::data::ron_list_part;
    if entities.is_empty() {
        return write(cx, ron_list_part::<T>(&[], depth, true, true)?);
    }
    let parts = entities.len().div_ceil(per_part.max(1));
    for (k, part) in entities.chunks(per_part.max(1)).enumerate() {
        let records = extract(cx, part)?;
        write(cx, ron_list_part(&records, depth, k == 0, k + 1 == parts)?)?;
        keep(records);
    }
    Ok(())
}

/// The rest of the index's records once its units ([`UnitRecords`]) were
/// given every unit in state order, or failed to take one: then the index is
/// given up (the turn has none), as it is when it gave up before.
fn finish_index<'a, B: Fn(usize) -> Brief<'a>>(
    out: &mut StateOut<'_, '_, RuleSet>,
    index: Option<(PutRecords<'a, B>, UnitRecords, Result<(), crate::core::data::bin::Error>)>,
) -> std::io::Result<()> {
    let Some((put, units, added)) = index else { return Ok(()) };
    out.with_records(|sys| added.and_then(|()| put.finish(units, sys))).map(drop)
}

/// Unit `u` as the records of places name it, as [`world::extract_units`] writes
/// its id, faction, race and location.
fn brief<'w>(world: &'w World, catalog: &'w Catalog, u: Entity) -> Brief<'w> {
    let id = |e: Entity| world.get::<Id>(e).map_or("", |i| i.0.as_str());
    let r = world.entity(u);
    Brief {
        id: r.get::<Id>().map_or("", |i| i.0.as_str()),
        faction: r.get::<Owner>().map_or("", |o| id(o.0)),
        race: r.get::<Race>().map_or("", |x| catalog.race_tag(x.0)),
        location: r.get::<At>().map_or("", |a| id(a.location)),
    }
}

#[cfg(test)]
mod tests {
    use super::write_in_parts;
    use crate::core::engine::{Engine, Threads};
    use crate::core::game::index;
    use crate::core::game::with_state_out;
    use crate::core::system::GameSystem;
    use crate::systems::overlord::testkit::{alpha, overlord_rules};
    use crate::systems::overlord::{Overlord, check, data, world};

    /// The state written a part at a time, in parts of any size, at once or
    /// through a writing thread (the units file then written from a thread of its
    /// own), is the state extracted whole and written: every file byte for byte,
    /// and every record of the mail index; also after a month has moved units,
    /// made and lost some.
    #[test]
    fn the_state_in_parts_is_the_whole_state_written() {
        // Alpha lists two factions' units mixed: each faction's record of its
        // units is made a unit at a time among the other's. Listed faction after
        // faction (here in the reverse of the factions' order), one after the
        // other.
        let mut grouped = alpha();
        let rank: std::collections::HashMap<String, usize> =
            grouped.factions.iter().enumerate().map(|(i, f)| (f.id.clone(), i)).collect();
        grouped.units.sort_by_key(|u| std::cmp::Reverse(rank[&u.faction]));
        let runs = |s: &data::Scenario| s.units.chunk_by(|a, b| a.faction == b.faction).count();
        let with_units =
            |s: &data::Scenario| s.factions.iter().filter(|f| s.units.iter().any(|u| u.faction == f.id)).count();
        assert!(runs(&alpha()) > with_units(&alpha()), "alpha lists some faction's units apart");
        assert_eq!(runs(&grouped), with_units(&grouped));
        for scenario in [alpha(), grouped] {
            state_in_parts_is_whole_state(scenario);
        }
    }

    /// Writes `scenario`'s state in parts of every size, before and after a
    /// month, and compares it with the whole state.
    fn state_in_parts_is_whole_state(scenario: data::Scenario) {
        let rules = overlord_rules();
        let mut engine = Engine::<Overlord>::new(rules.clone(), scenario, Threads::One).unwrap();
        let kept = check::records::mail_rules(&rules);
        for month in 0..2 {
            if month > 0 {
                engine.run_turn(|_, _| {});
            }
            let w = engine.world();
            let mut whole = world::extract(w);
            let (name, turn) = (whole.game.name.clone(), whole.game.turn);
            crate::core::secret::seal(Overlord::passwords_mut(&mut whole), &name, turn);
            let game = index::GameRecord { name: name.clone(), title: whole.game.title.clone(), turn };
            let factions: Vec<_> = Overlord::factions(&whole).into_iter().map(index::FactionRecord::from).collect();
            let want = || {
                index::records(game.clone(), &kept, factions.clone(), |out| check::records::records(&whole, out))
                    .unwrap()
            };
            let files = data::scenario_files(&whole).unwrap();
            // Piped, the units file is written beside the index's units.
            for (per_part, piped) in [(1, false), (7, false), (7, true), (100, false), (100, true), (100_000, true)] {
                let t = tempfile::tempdir().unwrap();
                let (summary, records) =
                    with_state_out(t.path(), &kept, piped, |out| write_in_parts(w, out, per_part)).unwrap();
                assert_eq!(summary.units, whole.units.len());
                // The index as written (what was given as made, then the rest)
                // is the index of the records of the whole state.
                let meta = index::Meta::now("overlord", turn, t.path(), t.path()).unwrap();
                let mut got = std::fs::read(t.path().join(index::FILE)).unwrap_or_default();
                records
                    .unwrap()
                    .unwrap()
                    .finish(&meta, |part| {
                        got.extend_from_slice(&part);
                        Ok(())
                    })
                    .unwrap();
                assert!(got == index::encode(&meta, want()).unwrap(), "records, parts of {per_part}, month {month}");
                for (file, bytes) in &files {
                    let got = std::fs::read(t.path().join("state").join(file)).unwrap();
                    assert!(got == *bytes, "{file}, parts of {per_part}, month {month}");
                }
                // Passwords are hashed as the whole state's are: never in clear.
                let factions = std::fs::read_to_string(t.path().join("state/factions.ron")).unwrap();
                assert!(!factions.contains("password: \"pswd"), "a password in clear");
            }
        }
    }
}
