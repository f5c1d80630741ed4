//! The battle framework: battles asked for during a day and fought in the day's
//! battle step.
//!
//! A rule system's mechanics ask for battles ([`Requests::ask`]: where, who attacks
//! whom, and why, in the rule system's own terms). The rule system's [`Resolver`]
//! does the rest in three stages, which [`run`] drives:
//!
//! 1. **muster**, in request order, on the world: who fights on which side, with
//!    what, read into a value that owns everything the battle needs, and the
//!    battle's own random stream;
//! 2. **fight**: a pure function of the muster and its stream. Battles in different
//!    places are fought in parallel; the result never depends on the thread count,
//!    nor on the other battles of the day;
//! 3. **apply**, in request order, on the world: casualties, spoils and whatever
//!    else the rule system's battles leave behind, with the rest of the battle's
//!    stream.
//!
//! Requests at one place are fought one after the other, each mustered after the
//! previous one was applied (the second battle of the day sees the dead of the
//! first); places take turns, so each wave holds at most one battle per place.
//!
//! [`Role`] says how a faction saw a battle, for the reports each rule system
//! writes from its own record of the battle.

use crate::core::engine::ThreadCount;
use crate::core::engine::parallel::map_ordered;
use bevy_ecs::entity::{Entity, EntityHashMap};
use bevy_ecs::resource::Resource;
use bevy_ecs::world::World;
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

/// A battle asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request<C> {
    /// Where it is fought.
    pub place: Entity,
    /// The unit that attacks.
    pub attacker: Entity,
    /// The unit attacked.
    pub target: Entity,
    /// Why, in the rule system's terms.
    pub cause: C,
}

/// The battles asked for and not yet fought, in the order they were asked for.
#[derive(Resource, Debug)]
pub struct Requests<C: Send + Sync + 'static>(Vec<Request<C>>);

impl<C: Send + Sync + 'static> Default for Requests<C> {
    fn default() -> Self {
        Requests(Vec::new())
    }
}

impl<C: Send + Sync + 'static> Requests<C> {
    /// Asks for a battle.
    pub fn ask(&mut self, request: Request<C>) {
        self.0.push(request);
    }
    /// The battles asked for so far, in order.
    pub fn pending(&self) -> &[Request<C>] {
        &self.0
    }
}

/// How a faction saw a battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// It fought on side 0 (the attackers) or 1 (the defenders).
    Side(u8),
    /// It was there and watched.
    Bystander,
}

/// A rule system's battles: how they are mustered, fought and applied.
pub trait Resolver: 'static {
    /// Why a battle was asked for.
    type Cause: Send + Sync + 'static;
    /// Everything one battle needs, read from the world.
    type Muster: Send + Sync;
    /// What a battle leaves behind, before it is applied to the world.
    type Outcome: Send;

    /// A key that orders places (their report order): battles are mustered and
    /// applied in this order within a wave.
    fn place_order(world: &World, place: Entity) -> u64;
    /// The battle `request` asks for, with the seed of its random stream; `None`
    /// when it cannot be fought (a side is gone, the attacker changed its mind).
    fn muster(world: &mut World, request: &Request<Self::Cause>) -> Option<(Self::Muster, [u8; 32])>;
    /// Fights the battle: no world, only the muster and the battle's stream.
    fn fight(muster: &Self::Muster, rng: &mut ChaCha8Rng) -> Self::Outcome;
    /// Applies the battle's outcome to the world, with the rest of its stream.
    fn apply(world: &mut World, muster: Self::Muster, outcome: Self::Outcome, rng: &mut ChaCha8Rng);
}

/// The requests at one place: its order key, when it was first asked for, the requests.
type Place<C> = (u64, usize, Vec<Request<C>>);

/// Fights every battle asked for: see the module documentation. Battles asked for
/// while others are applied are fought too, after them.
pub fn run<R: Resolver>(world: &mut World) {
    let threads = world.get_resource::<ThreadCount>().map_or(1, |t| t.0);
    // A battle rarely asks for another; this bounds a rule system that always does.
    for _ in 0..64 {
        let asked = std::mem::take(&mut world.resource_mut::<Requests<R::Cause>>().0);
        if asked.is_empty() {
            return;
        }
        // Requests by place, places in report order, requests in the order asked.
        let mut index: EntityHashMap<usize> = EntityHashMap::default();
        let mut places: Vec<Place<R::Cause>> = Vec::new();
        for r in asked {
            let i = *index.entry(r.place).or_insert_with(|| {
                places.push((R::place_order(world, r.place), places.len(), Vec::new()));
                places.len() - 1
            });
            places[i].2.push(r);
        }
        places.sort_by_key(|p| (p.0, p.1));
        let mut queues: Vec<std::collections::VecDeque<Request<R::Cause>>> =
            places.into_iter().map(|p| p.2.into()).collect();
        while queues.iter().any(|q| !q.is_empty()) {
            let mut wave: Vec<(R::Muster, [u8; 32])> = Vec::new();
            for q in &mut queues {
                // The place's next request that can still be fought.
                while let Some(r) = q.pop_front() {
                    if let Some(m) = R::muster(world, &r) {
                        wave.push(m);
                        break;
                    }
                }
            }
            let fought = map_ordered(&wave, if wave.len() > 1 { threads } else { 1 }, |(m, seed)| {
                let mut rng = ChaCha8Rng::from_seed(*seed);
                let o = R::fight(m, &mut rng);
                (o, rng)
            });
            for ((m, _), (o, mut rng)) in wave.into_iter().zip(fought) {
                R::apply(world, m, o, &mut rng);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    #[derive(bevy_ecs::component::Component)]
    struct Strength(u32);
    #[derive(Resource, Default)]
    struct Log(Vec<String>);

    /// A toy resolver: the stronger side wins and the loser loses one strength.
    struct Toy;
    impl Resolver for Toy {
        type Cause = &'static str;
        type Muster = (Entity, Entity, u32, u32, &'static str);
        type Outcome = (bool, u32);
        fn place_order(world: &World, place: Entity) -> u64 {
            world.get::<Strength>(place).map_or(0, |s| u64::from(s.0))
        }
        fn muster(world: &mut World, r: &Request<&'static str>) -> Option<(Self::Muster, [u8; 32])> {
            let a = world.get::<Strength>(r.attacker)?.0;
            let d = world.get::<Strength>(r.target)?.0;
            (a > 0 && d > 0).then_some(((r.attacker, r.target, a, d, r.cause), [a as u8; 32]))
        }
        fn fight(m: &Self::Muster, rng: &mut ChaCha8Rng) -> (bool, u32) {
            (m.2 > m.3, rng.random_range(0..1000))
        }
        fn apply(world: &mut World, m: Self::Muster, o: (bool, u32), rng: &mut ChaCha8Rng) {
            let loser = if o.0 { m.1 } else { m.0 };
            world.get_mut::<Strength>(loser).expect("unit").0 -= 1;
            let after: u32 = rng.random_range(0..1000);
            world.resource_mut::<Log>().0.push(format!("{}:{}:{}:{}", m.4, o.0, o.1, after));
        }
    }

    fn play(threads: usize) -> (Vec<String>, Vec<u32>) {
        let mut w = World::new();
        w.insert_resource(ThreadCount(threads));
        w.init_resource::<Requests<&'static str>>();
        w.init_resource::<Log>();
        let (p1, p2) = (w.spawn(Strength(2)).id(), w.spawn(Strength(1)).id());
        let units: Vec<Entity> = [3, 1, 2, 5].iter().map(|&s| w.spawn(Strength(s)).id()).collect();
        let mut q = w.resource_mut::<Requests<&'static str>>();
        q.ask(Request { place: p1, attacker: units[0], target: units[1], cause: "first at p1" });
        q.ask(Request { place: p1, attacker: units[0], target: units[1], cause: "second at p1" });
        q.ask(Request { place: p2, attacker: units[2], target: units[3], cause: "at p2" });
        run::<Toy>(&mut w);
        let strength = units.iter().map(|&u| w.get::<Strength>(u).unwrap().0).collect();
        (w.resource::<Log>().0.clone(), strength)
    }

    #[test]
    fn places_take_turns_and_a_place_fights_its_requests_in_order() {
        let (log, strength) = play(1);
        // p2 comes first (place order 1 < 2). At p1 the first battle leaves the
        // target at 0: the second cannot be mustered.
        assert_eq!(log.len(), 2, "{log:?}");
        assert!(log[0].starts_with("at p2:false:"), "{log:?}");
        assert!(log[1].starts_with("first at p1:true:"), "{log:?}");
        assert_eq!(strength, [3, 0, 1, 5]);
    }

    #[test]
    fn results_do_not_depend_on_the_thread_count() {
        assert_eq!(play(1), play(4));
    }
}
