//! The battlefield (§26 "Battle advantages", "Battle", "Melee", "Non-melee attacks",
//! "Retreat", "Special battles"): a pure function of the armies and the battle's
//! random stream. It knows no world; [`super::muster`] reads the armies from the
//! world and [`super::after`] applies what is left of them.
//!
//! The field has the rule set's ranks × files squares per side: side 0's rear rank is
//! row 0 and its front row `ranks − 1`; side 1's front is row `ranks`, its rear row
//! `2 × ranks − 1`. Files are counted from the same edge for both sides. The distance
//! between two squares is the difference in rows plus the difference in files (a
//! diagonal is 2); adjacent squares are at distance 1 (CMB-MISSILE).

use super::record::{AmbushRecord, Blow, Line, RoundRecord};
use crate::systems::overlord::data::{BattleRules, Stats};
use rand::RngExt;
use rand::rngs::ChaCha8Rng;

/// A movement setting (CMB-MOVES), known by the tag of `combat.ron`'s `moves`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// To the rear, then the least exposed file; leaves after some rounds there.
    Flee,
    /// Like FLEE, without leaving.
    Retreat,
    /// Never moves.
    Stand,
    /// Forward while the square ahead holds no enemy.
    Advance,
    /// Like ADVANCE; holds while an enemy is in the same rank on an adjacent file.
    Sweep,
    /// Like SWEEP; to the centre while an enemy is in the same rank, then back.
    Flank,
    /// Toward the nearest enemy.
    Charge,
    /// Forward while keeping one empty square before the nearest enemy.
    Fire,
    /// Like FIRE, and backs off from an adjacent enemy.
    Support,
}

impl Move {
    /// The movement setting of a `combat.ron` move tag.
    pub fn of_tag(tag: &str) -> Option<Move> {
        Some(match tag {
            "flee" => Move::Flee,
            "retreat" => Move::Retreat,
            "stand" => Move::Stand,
            "advance" => Move::Advance,
            "sweep" => Move::Sweep,
            "flank" => Move::Flank,
            "charge" => Move::Charge,
            "fire" => Move::Fire,
            "support" => Move::Support,
            _ => return None,
        })
    }
}

/// How an attack reaches its target.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Reach {
    /// An adjacent square; melee statistics.
    #[default]
    Melee,
    /// A square at distance 2 up to `range` (0: the whole field); missile statistics
    /// against a fraction of the defense.
    Ranged(u32),
}

/// Whom a battlefield enchantment falls on: `combat.ron`'s target classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aim {
    /// The caster (`BATTLEFIELD_TARGET_SELF`).
    Caster,
    /// Every unit of the caster's side (`…_OWN_SIDE`); with a range, those in it
    /// (`…_FRIENDLY`).
    Friends,
    /// Every unit of the other side (`…_OPPOSITE_SIDE`); with a range, those in it
    /// (`…_OPPOSING`).
    Enemies,
    /// The other side's leaders (`…_OPPOSING_LEADER`, `…_LEADER`).
    EnemyLeaders,
    /// The caster's side's leaders (`…_FRIENDLY_LEADER`).
    FriendlyLeaders,
    /// Every unit on the field, of both sides, within the range (`…_ALL`).
    Everyone,
}

impl Aim {
    /// The class of a `combat.ron` target tag.
    pub fn of_tag(tag: &str) -> Option<Aim> {
        Some(match tag {
            "BATTLEFIELD_TARGET_SELF" => Aim::Caster,
            "BATTLEFIELD_TARGET_OWN_SIDE" | "BATTLEFIELD_TARGET_FRIENDLY" => Aim::Friends,
            "BATTLEFIELD_TARGET_OPPOSITE_SIDE" | "BATTLEFIELD_TARGET_OPPOSING" => Aim::Enemies,
            "BATTLEFIELD_TARGET_OPPOSING_LEADER" | "BATTLEFIELD_TARGET_LEADER" => Aim::EnemyLeaders,
            "BATTLEFIELD_TARGET_FRIENDLY_LEADER" => Aim::FriendlyLeaders,
            "BATTLEFIELD_TARGET_ALL" => Aim::Everyone,
            _ => return None,
        })
    }
}

/// An enchantment put on units in battle (CMB-SPELL): what it adds to each figure
/// while it lasts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Charm {
    /// The enchantment's tag (for the record).
    pub tag: String,
    /// Added to each figure's statistics (life: extra life points, lost again when
    /// it ends without killing: the figure keeps at most its own life).
    pub stats: Stats,
    /// Whether it makes the unit fly (CMB-FLY).
    pub flies: bool,
    /// Rounds it lasts, the round it is cast in included.
    pub rounds: u32,
}

/// What a spell that enchants on the battlefield does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Charming {
    /// On whom.
    pub aim: Aim,
    /// How far from the caster (0: the whole field).
    pub range: u32,
    /// The enchantments.
    pub charms: Vec<Charm>,
    /// Whether the caster then strikes in melee (the data's `secondary: "MELEE"`): the
    /// enchantments go on the caster, and the aim is of its strike.
    pub then_melee: bool,
    /// Whether the unit then takes its next action, one initiative lower (`"NEXT"`).
    pub then_next: bool,
}

/// A combat skill or item used as an action (CMB-ACT, CMB-SKILLEQUIP, CMB-ITEM).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Special {
    /// The skill or item tag, as the report names the action.
    pub tag: String,
    /// How it reaches.
    pub reach: Reach,
    /// Only opposing leaders may be its targets.
    pub leaders_only: bool,
    /// Added to the figures' statistics for the attack (initiative: to the action's).
    pub bonus: Stats,
    /// For an item: how many figures hold it (the first ones); `None`: every figure.
    pub holders: Option<u32>,
    /// Index of the skill experience goes to, in the fighter's `trains`.
    pub trains: Option<usize>,
    /// For a spell: the mana one casting costs (CMB-SPELL); `None` for a skill or an
    /// item, which stays in the list round after round (CMB-SPELLLIST).
    pub mana: Option<u32>,
    /// For a spell: the components one casting consumes, by item tag (MAG-COST).
    pub consumes: Vec<(String, u32)>,
    /// For a spell that enchants rather than strikes (its `reach` is then that of
    /// its strike, if it strikes).
    pub charming: Option<Charming>,
    /// For a spell that summons: the index of the creatures it calls among the
    /// armies' fighters (a [`Reserve`]).
    pub summons: Option<usize>,
    /// The damage type of its hits (`combat.ron`'s `damage_types`: fire, earth…),
    /// for the record: the rule set gives no protection against any (CMB-MISSILE).
    pub damage: Option<String>,
}

/// Creatures a spell calls onto the battlefield: a fighter that is not on it until
/// its caster casts the spell; each casting brings its figures (CMB-SPELL).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reserve {
    /// The caster's index among the fighters.
    pub caster: usize,
    /// Whether they appear on the caster's square (else where their tactics put
    /// them).
    pub at_caster: bool,
    /// Their name, for the record.
    pub name: String,
    /// Their race's tag.
    pub race: String,
}

/// One entry of a unit's action list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// No attack; the unit's attack is added to its defense for the rest of the round.
    Parry,
    /// Attack an adjacent enemy.
    Melee,
    /// Attack a distant enemy with missile statistics.
    Ranged,
    /// A combat skill or item.
    Special(Special),
    /// An action this unit cannot use in battle, with why (a spell before magic
    /// exists, a skill without its equipment…): skipped, and said once.
    Unusable {
        /// The tag.
        tag: String,
        /// Why.
        why: String,
    },
}

/// One unit as it enters the battle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fighter {
    /// Unit id (in the record).
    pub id: String,
    /// Side: 0 attacks, 1 defends.
    pub side: u8,
    /// Figures.
    pub figures: u32,
    /// Per-figure statistics by equipment: `(n, stats)` for the next `n` figures
    /// (the first figures hold the equipment; when they fall, the next pick it up).
    pub bands: Vec<(u32, Stats)>,
    /// The unit's statistics as its report shows them (initiative, defense for
    /// morale, stealth, observation, hits).
    pub stats: Stats,
    /// Its melee value without equipment (CMB-WOUND).
    pub base_melee: i32,
    /// Rank counted from the front (0: front) and file, as placed by TACTIC.
    pub rank: u32,
    /// File.
    pub file: u32,
    /// Movement setting.
    pub movement: Move,
    /// Its COMBAT list; `MELEE PARRY` is appended when the battle is fought.
    pub actions: Vec<Action>,
    /// Whether it flies (CMB-FLY).
    pub flyer: bool,
    /// Whether every figure has a mount equipped (CMB-MOVES: double chance).
    pub mounted: bool,
    /// Whether it is fanatic (CMB-FANATIC).
    pub fanatic: bool,
    /// Whether its race is a leader's (target the leader).
    pub leader: bool,
    /// Whether it was on guard that day (CMB-AMBUSH, GRD-AMBUSH).
    pub guarding: bool,
    /// Its tactics level (CMB-TACTICS).
    pub tactics: u32,
    /// Whether it knows strategy.
    pub strategy: bool,
    /// Its ambush experience (CMB-AMBUSH: the army counts as one unit).
    pub ambush_experience: u64,
    /// Its mana as the battle begins; it regains one point a round up to its
    /// maximum, `stats.mana` (CMB-SPELL).
    pub mana: u32,
    /// What it holds of the components its spells consume, by item tag.
    pub supplies: Vec<(String, u32)>,
    /// For creatures a spell calls: who calls them. `figures` is then how many one
    /// casting brings; they are not on the field before.
    pub reserve: Option<Reserve>,
}

/// The battle as mustered: the rules and the armies.
#[derive(Debug, Clone)]
pub struct Armies {
    /// The numbers.
    pub rules: BattleRules,
    /// Ranks per side.
    pub ranks: u32,
    /// Files.
    pub files: u32,
    /// Rank names from the front, file names from the edge (for the record).
    pub rank_names: Vec<String>,
    /// File names.
    pub file_names: Vec<String>,
    /// Cumulative experience of each level of the ambush skill.
    pub ambush_levels: Vec<u32>,
    /// Whether the battle comes from an ATTACK order (no role reversal).
    pub from_attack: bool,
    /// The units, side 0 first.
    pub fighters: Vec<Fighter>,
}

/// What a unit did in a battle, for experience and the aftermath.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Deeds {
    /// Figures alive at the end, before healing.
    pub alive: u32,
    /// Of those, wounded with one life point left: they die unless they heal
    /// (CMB-HEAL; a wounded figure with more life only loses a point).
    pub dying: u32,
    /// Whether it fled.
    pub fled: bool,
    /// Rounds it was on the field.
    pub rounds: u32,
    /// Rounds it struck with MELEE.
    pub melee_rounds: u32,
    /// Rounds it parried.
    pub parry_rounds: u32,
    /// Rounds it used each special action, by the special's `trains` index.
    pub special_rounds: Vec<(usize, u32)>,
    /// Its mana at the end.
    pub mana: u32,
    /// Components its spells consumed, by item tag.
    pub spent: Vec<(String, u32)>,
    /// For creatures a spell called: how many figures came, over the battle.
    pub called: u32,
}

/// The result of the battlefield.
#[derive(Debug, Clone)]
pub struct Fought {
    /// Per fighter, in order.
    pub deeds: Vec<Deeds>,
    /// The rounds.
    pub rounds: Vec<RoundRecord>,
    /// The winning side.
    pub winner: Option<u8>,
    /// Why it ended.
    pub ended: &'static str,
    /// Ambush levels.
    pub ambush: AmbushRecord,
    /// Tactic levels.
    pub tactics: [u32; 2],
    /// Where each unit stood at the start (after an ambush's shuffle): rank, file.
    pub placed: Vec<(u32, u32)>,
}

#[derive(Debug, Clone, Copy)]
struct Fig {
    /// Deadly hits it can still take.
    life: u32,
    wounded: bool,
}

struct Live {
    figs: Vec<Fig>,
    x: i32,
    y: i32,
    home_x: i32,
    out: bool,
    rear_rounds: u32,
    moved: bool,
    meleed: bool,
    parried: bool,
    /// This round's actions: the COMBAT list then MELEE PARRY.
    list: Vec<Action>,
    /// Listed initiative of each entry (CMB-ROUND).
    listed: Vec<i32>,
    movement: Move,
    stealth: i32,
    said_unusable: Vec<String>,
    deeds: Deeds,
    struck_melee: bool,
    did_parry: bool,
    specials_used: Vec<usize>,
    /// Mana left (CMB-SPELL).
    mana: u32,
    /// Spells of the COMBAT list attempted, left out until none of the list is left
    /// (CMB-SPELLLIST).
    cast: Vec<String>,
    /// Components left.
    supplies: Vec<(String, u32)>,
    /// Enchantments upon it, with the last round they last.
    charms: Vec<(Charm, u32)>,
    /// What they add to each figure, summed.
    charmed: Stats,
    /// Whether one makes it fly.
    charm_flies: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    init: i32,
    /// Draw for the order within an initiative (mounted units draw twice).
    order: u64,
    unit: usize,
    index: usize,
    cap: i32,
    strikes: u32,
    first: bool,
}

/// Chance in percent, 0 to 100.
fn chance(rng: &mut ChaCha8Rng, percent: i64) -> bool {
    percent >= 100 || (percent > 0 && i64::from(rng.random_range(0..100u32)) < percent)
}

/// CMB-STRIKE (rulings 9): the chance that attack `a` hits defense `d`, drawn.
pub fn hits(rng: &mut ChaCha8Rng, a: i32, d: i32) -> bool {
    let (mut a, mut d) = (i64::from(a.max(0)), i64::from(d.max(0)));
    if a == 0 {
        return false;
    }
    if d == 0 {
        return true;
    }
    let m = a.min(d);
    if m > 1 {
        a -= m - 1;
        d -= m - 1;
    }
    (rng.random_range(0..(a + d) as u64) as i64) < a
}

/// The hit chance of attack `a` against defense `d`, as a fraction (rulings 9).
pub fn hit_odds(a: i32, d: i32) -> f64 {
    let (mut a, mut d) = (f64::from(a.max(0)), f64::from(d.max(0)));
    if a == 0.0 {
        return 0.0;
    }
    if d == 0.0 {
        return 1.0;
    }
    let m = a.min(d);
    if m > 1.0 {
        a -= m - 1.0;
        d -= m - 1.0;
    }
    a / (a + d)
}

fn plus(a: &Stats, b: &Stats) -> Stats {
    let mut s = a.clone();
    crate::systems::overlord::mechanics::stats::add(&mut s, b, 1, 1);
    s
}

impl Fighter {
    /// `figures` figures of statistics `stats`, none of them equipped, standing at
    /// the front (rank 0) of the first file with no COMBAT list, no skill that
    /// counts in battle, on STAND: what a test or a benchmark changes from.
    pub fn new(id: &str, side: u8, figures: u32, stats: Stats) -> Fighter {
        Fighter {
            id: id.into(),
            side,
            figures,
            bands: vec![(figures, stats.clone())],
            base_melee: stats.melee,
            stats,
            rank: 0,
            file: 0,
            movement: Move::Stand,
            actions: Vec::new(),
            flyer: false,
            mounted: false,
            fanatic: false,
            leader: false,
            guarding: false,
            tactics: 0,
            strategy: false,
            ambush_experience: 0,
            mana: 0,
            supplies: Vec::new(),
            reserve: None,
        }
    }

    /// The statistics of the figure at `index` among the living ones.
    fn figure(&self, index: usize) -> &Stats {
        let mut upto = 0usize;
        for (n, s) in &self.bands {
            upto += *n as usize;
            if index < upto {
                return s;
            }
        }
        self.bands.last().map_or(&self.stats, |b| &b.1)
    }
}

struct Field<'a> {
    a: &'a Armies,
    r: &'a BattleRules,
    units: Vec<Live>,
    rows: i32,
    round: u32,
    rout: Option<u8>,
    wounds: bool,
    lines: Vec<Line>,
    killed: [u32; 2],
    round_killed: [u32; 2],
    /// Per square (`y × files + x`), the units of each side standing there (some
    /// may have fallen or fled: readers check [`Field::active`]). Every look for
    /// enemies goes through the squares, never through every unit.
    squares: Vec<[Vec<usize>; 2]>,
}

/// Where fighter `f` stands as the battle begins: its rank (from its side's front)
/// and file, as a square.
fn start_square(a: &Armies, f: &Fighter) -> (i32, i32) {
    let rank = f.rank.min(a.ranks - 1) as i32;
    let y = if f.side == 0 { a.ranks as i32 - 1 - rank } else { a.ranks as i32 + rank };
    (f.file.min(a.files - 1) as i32, y)
}

/// Fights the battle (CMB-AMBUSH to CMB-HEAL).
pub fn fight(a: &Armies, rng: &mut ChaCha8Rng) -> Fought {
    let r = &a.rules;
    let rows = 2 * a.ranks as i32;
    let units: Vec<Live> = a
        .fighters
        .iter()
        .map(|f| {
            let life = f.stats.life.max(1) as u32;
            let (x, y) = start_square(a, f);
            let figures = if f.reserve.is_some() { 0 } else { f.figures as usize };
            Live {
                figs: vec![Fig { life, wounded: false }; figures],
                x,
                y,
                home_x: x,
                out: figures == 0,
                rear_rounds: 0,
                moved: false,
                meleed: false,
                parried: false,
                list: Vec::new(),
                listed: Vec::new(),
                movement: f.movement,
                stealth: f.stats.stealth,
                said_unusable: Vec::new(),
                deeds: Deeds::default(),
                struck_melee: false,
                did_parry: false,
                specials_used: Vec::new(),
                mana: f.mana,
                cast: Vec::new(),
                supplies: f.supplies.clone(),
                charms: Vec::new(),
                charmed: Stats::default(),
                charm_flies: false,
            }
        })
        .collect();
    let mut field = Field {
        a,
        r,
        units,
        rows,
        round: 0,
        rout: None,
        wounds: false,
        lines: Vec::new(),
        killed: [0; 2],
        round_killed: [0; 2],
        squares: vec![Default::default(); (rows as usize) * a.files as usize],
    };
    let (ambush, lead) = field.ambush(rng);
    for i in 0..field.units.len() {
        let (x, y) = (field.units[i].x, field.units[i].y);
        let (sq, side) = (field.sq(x, y), field.side(i) as usize);
        field.squares[sq][side].push(i);
    }
    let placed = field.units.iter().map(|u| (field.rank_of(u) as u32, u.x as u32)).collect();
    let tactics = field.tactics_levels(&ambush, lead);
    let strategy = [0u8, 1].map(|s| a.fighters.iter().any(|f| f.side == s && f.strategy));
    let initial = [0u8, 1].map(|s| {
        a.fighters
            .iter()
            .filter(|f| f.side == s && !f.fanatic && f.reserve.is_none())
            .map(|f| u64::from(f.figures))
            .sum::<u64>()
    });
    let mut rounds = Vec::new();
    let mut quiet = 0u32;
    let mut checked_since: [Option<u32>; 2] = [None, None];
    let mut winner = None;
    let mut ended = "rounds";
    for round in 1..=r.max_rounds {
        field.round = round;
        // CMB-TACTICS: the advantage fades by one a round, unless the side has strategy.
        let adv = tactics[0] as i32 - tactics[1] as i32;
        let fade = |s: usize, v: i32| if strategy[s] { v } else { (v - (round as i32 - 1)).max(0) };
        let bonus = [fade(0, adv.max(0)), fade(1, (-adv).max(0))];
        field.play_round(rng, bonus);
        rounds.push(RoundRecord {
            round,
            rout: false,
            lines: std::mem::take(&mut field.lines),
            casualties: field.round_killed,
        });
        quiet = if field.wounds { 0 } else { quiet + 1 };
        // CMB-END, in order: a side with no units; morale; no wounds; rounds.
        // Creatures a spell called do not keep their side on the field.
        let gone = [0u8, 1].map(|s| {
            !(0..field.units.len())
                .any(|i| a.fighters[i].side == s && a.fighters[i].reserve.is_none() && field.active(i))
        });
        let mut broke = [false; 2];
        for s in 0..2 {
            if gone[s] || initial[s] == 0 {
                continue;
            }
            if u64::from(field.killed[s]) * 100 >= u64::from(r.morale_casualty_percent) * initial[s] {
                let since = *checked_since[s].get_or_insert(round);
                let drop = i64::from(r.morale_drop_per_round) * i64::from(round - since);
                let morale = field.morale(s as u8) - drop;
                let roll = i64::from(rng.random_range(1..=100u32));
                if roll > morale {
                    broke[s] = true;
                    rounds.last_mut().expect("round").lines.push(Line::Morale { side: s as u8 });
                }
            }
        }
        let down = [gone[0] || broke[0], gone[1] || broke[1]];
        if down[0] || down[1] {
            ended = if gone[0] || gone[1] { "wiped out" } else { "morale" };
            winner = match down {
                [true, false] => Some(1),
                [false, true] => Some(0),
                _ => None,
            };
            break;
        }
        if quiet >= r.quiet_rounds {
            ended = "no wounds";
            break;
        }
    }
    // CMB-ROUT: one last round for the loser, fleeing, parrying badly, seen by all.
    if let Some(w) = winner {
        let loser = 1 - w;
        if (0..field.units.len()).any(|i| a.fighters[i].side == loser && field.active(i)) {
            field.rout = Some(loser);
            field.round += 1;
            for (u, f) in field.units.iter_mut().zip(&a.fighters) {
                if f.side == loser {
                    u.movement = Move::Flee;
                    u.stealth = -f.stats.stealth.abs();
                }
            }
            field.play_round(rng, [0, 0]);
            rounds.push(RoundRecord {
                round: field.round,
                rout: true,
                lines: std::mem::take(&mut field.lines),
                casualties: field.round_killed,
            });
        }
    }
    let deeds = field
        .units
        .into_iter()
        .zip(&a.fighters)
        .map(|(u, f)| {
            let mut d = u.deeds;
            d.mana = u.mana;
            d.spent = f
                .supplies
                .iter()
                .filter_map(|(t, had)| {
                    let left = u.supplies.iter().find(|x| &x.0 == t).map_or(0, |x| x.1);
                    (left < *had).then(|| (t.clone(), had - left))
                })
                .collect();
            d.alive = u.figs.len() as u32;
            d.dying = u.figs.iter().filter(|f| f.wounded && f.life == 1).count() as u32;
            d.fled = u.out && !u.figs.is_empty();
            d
        })
        .collect();
    Fought { deeds, rounds, winner, ended, ambush, tactics, placed }
}

impl Field<'_> {
    fn side(&self, u: usize) -> u8 {
        self.a.fighters[u].side
    }

    fn forward(&self, u: usize) -> i32 {
        if self.side(u) == 0 { 1 } else { -1 }
    }

    fn rear_row(&self, u: usize) -> i32 {
        if self.side(u) == 0 { 0 } else { self.rows - 1 }
    }

    /// Rank from the front of its own side's half (0: front), or past it.
    fn rank_of(&self, u: &Live) -> i32 {
        let ranks = self.a.ranks as i32;
        if u.y < ranks { ranks - 1 - u.y } else { u.y - ranks }
    }

    /// `rank file` of a square for the record, from the point of view of side `s`.
    fn square(&self, s: u8, x: i32, y: i32) -> String {
        let ranks = self.a.ranks as i32;
        let own = (s == 0) == (y < ranks);
        let rank = if y < ranks { ranks - 1 - y } else { y - ranks } as usize;
        let rn = self.a.rank_names.get(rank).map_or("?", |n| n.as_str());
        let fname = self.a.file_names.get(x as usize).map_or("?", |n| n.as_str());
        if own { format!("{rn} {fname}") } else { format!("enemy {rn} {fname}") }
    }

    fn active(&self, u: usize) -> bool {
        !self.units[u].out && !self.units[u].figs.is_empty()
    }

    fn sq(&self, x: i32, y: i32) -> usize {
        (y * self.a.files as i32 + x) as usize
    }

    /// The active enemies of side `s` on square `(x, y)` (inside the field).
    fn enemies_on(&self, s: u8, x: i32, y: i32) -> impl Iterator<Item = usize> + '_ {
        self.squares[self.sq(x, y)][1 - s as usize].iter().copied().filter(|&i| self.active(i))
    }

    fn enemy_at(&self, s: u8, x: i32, y: i32) -> bool {
        self.inside(x, y) && self.enemies_on(s, x, y).next().is_some()
    }

    /// Every square: `(x, y)`.
    fn all_squares(&self) -> impl Iterator<Item = (i32, i32)> + use<> {
        let files = self.a.files as i32;
        (0..self.rows).flat_map(move |y| (0..files).map(move |x| (x, y)))
    }

    fn nearest_enemy(&self, s: u8, x: i32, y: i32) -> Option<(i32, usize)> {
        self.all_squares()
            .filter_map(|(ex, ey)| self.enemies_on(s, ex, ey).min().map(|i| ((ex - x).abs() + (ey - y).abs(), i)))
            .min()
    }

    fn inside(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && y < self.rows && x < self.a.files as i32
    }

    /// CMB-AMBUSH: the levels, the reversal of roles and the ambusher's shuffle of
    /// the other side. Returns the record and the ambusher's lead (as `(side, lead)`).
    fn ambush(&mut self, rng: &mut ChaCha8Rng) -> (AmbushRecord, Option<(u8, i32)>) {
        let f = &self.a.fighters;
        let base = |s: u8| -> (i32, i32) {
            let mine: Vec<&Fighter> = f.iter().filter(|x| x.side == s && x.reserve.is_none()).collect();
            let figs: i64 = mine.iter().map(|x| i64::from(x.figures)).sum::<i64>().max(1);
            let avg = |g: &dyn Fn(&Fighter) -> i32| {
                (mine.iter().map(|x| i64::from(g(x)) * i64::from(x.figures)).sum::<i64>().div_euclid(figs)) as i32
            };
            let stealth = avg(&|x| x.stats.stealth);
            let obs = avg(&|x| x.stats.observation);
            let exp = mine.iter().map(|x| x.ambush_experience as i64 * i64::from(x.figures)).sum::<i64>() / figs;
            let skill = self.a.ambush_levels.iter().take_while(|&&e| i64::from(e) <= exp).count() as i32;
            (stealth + skill, obs)
        };
        let ((a_base, a_obs), (d_base, d_obs)) = (base(0), base(1));
        let guards = f.iter().filter(|x| x.side == 1 && x.guarding).count() as i32;
        let mut levels = [a_base, d_base + d_obs + guards * self.r.guard_ambush as i32];
        let mut reversed = false;
        let mut attacker = 0u8;
        if levels[1] > levels[0] && !self.a.from_attack {
            // The defenders ambush the attackers: halved levels; the new defender's
            // observation counts, the guards' bonus no longer.
            reversed = true;
            attacker = 1;
            levels = [(a_base + a_obs).div_euclid(2), d_base.div_euclid(2)];
        }
        let lead = levels[attacker as usize] - levels[1 - attacker as usize];
        let mut record = AmbushRecord { levels, reversed, ambusher: None };
        if lead <= 0 {
            return (record, None);
        }
        record.ambusher = Some((attacker, lead));
        // Each level of lead shuffles the ambushed side: 1 a file, 2 a file and a
        // rank by one, 3 any file, 4 any rank.
        let files = self.a.files as i32;
        let ranks = self.a.ranks as i32;
        for i in 0..self.units.len() {
            if self.side(i) == attacker {
                continue;
            }
            let s = self.side(i);
            let u = &mut self.units[i];
            let mut rank = if u.y < ranks { ranks - 1 - u.y } else { u.y - ranks };
            if lead >= 3 {
                u.x = rng.random_range(0..files);
            } else {
                u.x = (u.x + [-1, 1][rng.random_range(0..2usize)]).clamp(0, files - 1);
            }
            if lead >= 4 {
                rank = rng.random_range(0..ranks);
            } else if lead >= 2 {
                rank = (rank + [-1, 1][rng.random_range(0..2usize)]).clamp(0, ranks - 1);
            }
            u.y = if s == 0 { ranks - 1 - rank } else { ranks + rank };
            u.home_x = u.x;
        }
        (record, Some((attacker, lead)))
    }

    /// CMB-TACTICS: each side's best tactician, plus the ambusher's lead.
    fn tactics_levels(&self, _ambush: &AmbushRecord, lead: Option<(u8, i32)>) -> [u32; 2] {
        let mut t =
            [0u8, 1].map(|s| self.a.fighters.iter().filter(|f| f.side == s).map(|f| f.tactics).max().unwrap_or(0));
        if let Some((s, l)) = lead {
            t[s as usize] += l as u32;
        }
        t
    }

    /// CMB-MORALE: the lowest morale of the side's living units that are not fanatic.
    fn morale(&self, s: u8) -> i64 {
        let best = self
            .a
            .fighters
            .iter()
            .enumerate()
            .filter(|&(i, f)| f.side == s && self.active(i))
            .map(|(_, f)| f.tactics)
            .max()
            .unwrap_or(0);
        self.a
            .fighters
            .iter()
            .enumerate()
            .filter(|&(i, f)| f.side == s && self.active(i) && !f.fanatic && f.reserve.is_none())
            .map(|(i, f)| {
                i64::from(self.r.morale_percent_per_defense)
                    * i64::from(f.stats.defense + self.units[i].charmed.defense)
                    + i64::from(self.r.morale_percent_per_tactics) * i64::from(best)
            })
            .min()
            .unwrap_or(100)
    }

    /// CMB-ROUND: one round, units acting from the highest initiative down.
    fn play_round(&mut self, rng: &mut ChaCha8Rng, bonus: [i32; 2]) {
        self.wounds = false;
        self.round_killed = [0; 2];
        let r = self.r;
        let mut queue: Vec<Entry> = Vec::new();
        for i in 0..self.units.len() {
            if !self.active(i) {
                continue;
            }
            let f = &self.a.fighters[i];
            let rout = self.rout == Some(f.side);
            // CMB-SPELL: a point of mana a round, up to the maximum.
            let max = f.stats.mana.max(0) as u32;
            if self.units[i].mana < max {
                self.units[i].mana += 1;
            }
            let mut list: Vec<Action> = if rout { vec![Action::Parry] } else { self.spell_list(i) };
            if !rout {
                list.push(Action::Melee);
                list.push(Action::Parry);
            }
            let base = f.stats.initiative
                + self.units[i].charmed.initiative
                + bonus[f.side as usize]
                + if self.flies(i) { r.flyer_initiative } else { 0 };
            let mut listed = Vec::with_capacity(list.len());
            let mut cap = i32::MAX;
            for a in &list {
                let m = match a {
                    Action::Parry => r.parry_initiative,
                    Action::Special(s) => s.bonus.initiative,
                    _ => 0,
                };
                cap = cap.min(base + m);
                listed.push(cap);
            }
            let u = &mut self.units[i];
            u.moved = false;
            u.meleed = false;
            u.parried = false;
            u.struck_melee = false;
            u.did_parry = false;
            u.specials_used.clear();
            u.deeds.rounds += 1;
            let order = Self::order_draw(rng, f.mounted);
            queue.push(Entry { init: listed[0], order, unit: i, index: 0, cap: i32::MAX, strikes: 0, first: true });
            u.list = list;
            u.listed = listed;
        }
        while let Some(level) = queue.iter().map(|e| e.init).max() {
            let mut now: Vec<Entry> = Vec::new();
            queue.retain(|e| {
                if e.init == level {
                    now.push(*e);
                    false
                } else {
                    true
                }
            });
            // Equal initiatives act at the same time, in a drawn order.
            now.sort_by(|a, b| b.order.cmp(&a.order).then(a.unit.cmp(&b.unit)));
            for e in &now {
                if e.first && self.active(e.unit) {
                    self.move_unit(e.unit);
                }
            }
            let acting: Vec<u32> = now.iter().map(|e| self.units[e.unit].figs.len() as u32).collect();
            for (e, n) in now.iter().zip(acting) {
                if self.units[e.unit].out || n == 0 {
                    continue;
                }
                self.act(rng, *e, n, level, &mut queue);
            }
        }
        // CMB-MOVES: a fleeing unit that stayed at the rear, unmoved and not in melee.
        for i in 0..self.units.len() {
            if !self.active(i) {
                continue;
            }
            let rear = self.rear_row(i);
            let u = &mut self.units[i];
            if u.y == rear && !u.moved && !u.meleed {
                u.rear_rounds += 1;
            } else {
                u.rear_rounds = 0;
            }
            if u.movement == Move::Flee && u.rear_rounds >= r.flee_rounds {
                u.out = true;
                self.lines.push(Line::Flee { unit: self.a.fighters[i].id.clone() });
            }
            let u = &mut self.units[i];
            if u.struck_melee {
                u.deeds.melee_rounds += 1;
            }
            if u.did_parry {
                u.deeds.parry_rounds += 1;
            }
            for k in std::mem::take(&mut u.specials_used) {
                match u.deeds.special_rounds.iter_mut().find(|x| x.0 == k) {
                    Some(x) => x.1 += 1,
                    None => u.deeds.special_rounds.push((k, 1)),
                }
            }
            self.wane(i);
        }
    }

    /// Whether unit `i` flies: by itself or by an enchantment (CMB-FLY).
    fn flies(&self, i: usize) -> bool {
        self.a.fighters[i].flyer || self.units[i].charm_flies
    }

    /// Unit `i`'s stealth now, enchantments included.
    fn stealth(&self, i: usize) -> i32 {
        self.units[i].stealth + self.units[i].charmed.stealth
    }

    /// The statistics of figure `k` of unit `i`, its enchantments included
    /// (borrowed when there are none: this is read for every blow).
    fn figure_now(&self, i: usize, k: usize) -> std::borrow::Cow<'_, Stats> {
        let s = self.a.fighters[i].figure(k);
        if self.units[i].charms.is_empty() {
            std::borrow::Cow::Borrowed(s)
        } else {
            std::borrow::Cow::Owned(plus(s, &self.units[i].charmed))
        }
    }

    /// CMB-SPELL: enchantments that end with this round leave unit `i`; a figure
    /// keeps at most the life it has without them (a wound taken under an
    /// enchantment's extra life is survived; the next hit is not).
    fn wane(&mut self, i: usize) {
        let round = self.round;
        let u = &mut self.units[i];
        if !u.charms.iter().any(|c| c.1 <= round) {
            return;
        }
        u.charms.retain(|c| c.1 > round);
        self.recharm(i);
        let most = (self.a.fighters[i].stats.life.max(1) + self.units[i].charmed.life).max(1) as u32;
        for f in &mut self.units[i].figs {
            f.life = f.life.min(most);
        }
    }

    /// Sums the enchantments upon unit `i`.
    fn recharm(&mut self, i: usize) {
        let u = &mut self.units[i];
        let mut sum = Stats::default();
        for (c, _) in &u.charms {
            crate::systems::overlord::mechanics::stats::add(&mut sum, &c.stats, 1, 1);
        }
        u.charm_flies = u.charms.iter().any(|c| c.0.flies);
        u.charmed = sum;
    }

    /// CMB-SPELLLIST: the unit's COMBAT list without the spells attempted; once every
    /// spell of the list has been, the whole list again.
    fn spell_list(&mut self, i: usize) -> Vec<Action> {
        let f = &self.a.fighters[i];
        let u = &mut self.units[i];
        let spell = |a: &Action| matches!(a, Action::Special(s) if s.mana.is_some());
        let left =
            |a: &Action, cast: &[String]| !matches!(a, Action::Special(s) if s.mana.is_some() && cast.contains(&s.tag));
        if !u.cast.is_empty() && !f.actions.iter().any(|a| spell(a) && left(a, &u.cast)) {
            u.cast.clear();
        }
        f.actions.iter().filter(|a| left(a, &u.cast)).cloned().collect()
    }

    fn order_draw(rng: &mut ChaCha8Rng, mounted: bool) -> u64 {
        let a = rng.random::<u64>();
        if mounted { a.max(rng.random::<u64>()) } else { a }
    }

    /// A unit's actions at initiative `level`, from `e.index` (CMB-ROUND).
    fn act(&mut self, rng: &mut ChaCha8Rng, e: Entry, n: u32, level: i32, queue: &mut Vec<Entry>) {
        let len = self.units[e.unit].list.len();
        let mut j = e.index;
        while j < len {
            let init = self.units[e.unit].listed[j].min(e.cap);
            if init < level {
                queue.push(Entry { init, index: j, first: false, ..e });
                return;
            }
            let action = self.units[e.unit].list[j].clone();
            // A spell's further strikes come with the casting: no mana again.
            let paid = e.strikes > 0 && matches!(action, Action::Special(_));
            match self.try_action(rng, e.unit, &action, n, paid) {
                Some(_) if matches!(&action, Action::Special(s) if s.charming.as_ref().is_some_and(|c| c.then_next)) => {
                    if j + 1 < len {
                        let init = level - 1;
                        queue.push(Entry { init, index: j + 1, first: false, cap: init, strikes: 0, ..e });
                    }
                    return;
                }
                Some(strikes_total) => {
                    // CMB-HITS: further strikes at a lower initiative, MELEE then PARRY
                    // (a special strikes again with itself).
                    let done = e.strikes + 1;
                    if strikes_total > done {
                        let next = if matches!(action, Action::Special(_)) { j } else { len - 2 };
                        let init = level + self.r.extra_strike_initiative;
                        queue.push(Entry { init, index: next, first: false, cap: init, strikes: done, ..e });
                    }
                    return;
                }
                None => j += 1,
            }
        }
    }

    /// Tries one action; `Some(strikes)` if it was carried out. `paid`: a further
    /// strike of a spell already cast (CMB-HITS), which costs no mana.
    fn try_action(&mut self, rng: &mut ChaCha8Rng, u: usize, action: &Action, n: u32, paid: bool) -> Option<u32> {
        let f = &self.a.fighters[u];
        let hits = f.stats.hits.max(1) as u32;
        match action {
            Action::Parry => {
                // CMB-ROUT: a routed unit's parry fails some of the time.
                let fails = self.rout == Some(f.side) && chance(rng, i64::from(self.r.rout_parry_fail_percent));
                if !fails {
                    self.units[u].parried = true;
                    self.units[u].did_parry = true;
                    self.lines.push(Line::Parry { unit: f.id.clone() });
                }
                Some(1)
            }
            Action::Melee => {
                let targets = self.targets(u, Reach::Melee, false);
                if targets.is_empty() {
                    return None;
                }
                self.attack(rng, u, n, Reach::Melee, &Stats::default(), ("MELEE", None), &targets);
                self.units[u].struck_melee = true;
                Some((hits as i32 + self.units[u].charmed.hits).max(1) as u32)
            }
            Action::Ranged => {
                let more = self.units[u].charmed.missile;
                let any_missile =
                    f.bands.iter().any(|b| b.0 > 0 && b.1.missile + more > 0) || f.stats.missile + more > 0;
                if !any_missile {
                    return None;
                }
                let targets = self.targets(u, Reach::Ranged(0), false);
                if targets.is_empty() {
                    return None;
                }
                self.attack(rng, u, n, Reach::Ranged(0), &Stats::default(), ("RANGED", None), &targets);
                Some(1)
            }
            Action::Special(s) => {
                let n = s.holders.map_or(n, |h| h.min(n));
                if n == 0 {
                    return None;
                }
                // CMB-SPELL: a spell needs its mana, its components and a target.
                let mana = s.mana.filter(|_| !paid);
                if mana.is_some_and(|m| self.units[u].mana < m) || (!paid && !self.supplied(u, &s.consumes)) {
                    return None;
                }
                let strike = s.charming.as_ref().is_none_or(|c| c.then_melee) && s.summons.is_none();
                let targets = if strike { self.targets(u, s.reach, s.leaders_only) } else { Vec::new() };
                let charmed = match &s.charming {
                    Some(c) if c.then_melee => vec![u],
                    Some(c) => self.charm_targets(u, c.aim, c.range),
                    None => Vec::new(),
                };
                let aimed_at_enemies = s.charming.as_ref().is_none_or(|c| c.aim != Aim::Caster);
                if (strike && aimed_at_enemies && targets.is_empty())
                    || (!strike && charmed.is_empty() && s.summons.is_none())
                {
                    return None;
                }
                let s = s.clone();
                if let Some(m) = mana {
                    let me = &mut self.units[u];
                    me.mana -= m;
                    me.cast.push(s.tag.clone());
                    for (t, n) in &s.consumes {
                        if let Some(x) = me.supplies.iter_mut().find(|x| &x.0 == t) {
                            x.1 -= n;
                        }
                    }
                    self.lines.push(Line::Cast { unit: f.id.clone(), spell: s.tag.clone(), mana: m });
                }
                if let Some(c) = &s.charming {
                    self.charm(u, c, &charmed);
                }
                if let Some(r) = s.summons {
                    self.call(u, r);
                }
                if strike && !targets.is_empty() {
                    self.attack(rng, u, n, s.reach, &s.bonus, (&s.tag, s.damage.as_deref()), &targets);
                }
                if let Some(k) = s.trains {
                    self.units[u].specials_used.push(k);
                }
                if !strike {
                    return Some(1);
                }
                let total = (f.stats.hits + self.units[u].charmed.hits + s.bonus.hits).max(1) as u32;
                Some(total)
            }
            Action::Unusable { tag, why } => {
                if !self.units[u].said_unusable.contains(tag) {
                    self.units[u].said_unusable.push(tag.clone());
                    self.lines.push(Line::Skip { unit: f.id.clone(), action: tag.clone(), why: why.clone() });
                }
                None
            }
        }
    }

    /// CMB-ACT, CMB-TARGET: the enemy units an attack may reach, in the order they
    /// are attacked: lowest stealth first; for melee the same file before the same
    /// rank; then front before rear; for missiles the nearest first.
    fn targets(&self, u: usize, reach: Reach, leaders_only: bool) -> Vec<usize> {
        let me = &self.units[u];
        let s = self.side(u);
        let adjacent_enemy =
            || [(1, 0), (-1, 0), (0, 1), (0, -1)].iter().any(|(dx, dy)| self.enemy_at(s, me.x + dx, me.y + dy));
        let mut v: Vec<(i32, i32, i32, usize)> = Vec::new();
        for (x, y) in self.all_squares() {
            let (dx, dy) = ((x - me.x).abs(), (y - me.y).abs());
            let d = dx + dy;
            let (ok, near) = match reach {
                Reach::Melee => (d == 1, if dx == 0 { 0 } else { 1 }),
                Reach::Ranged(range) => (d >= 2 && (range == 0 || d <= range as i32), d),
            };
            if !ok {
                continue;
            }
            for i in self.enemies_on(s, x, y) {
                if leaders_only && !self.a.fighters[i].leader {
                    continue;
                }
                let t = &self.units[i];
                v.push((self.stealth(i), near, self.rank_of(t), i));
            }
        }
        if matches!(reach, Reach::Ranged(_)) && !v.is_empty() && adjacent_enemy() {
            return Vec::new();
        }
        v.sort_unstable();
        v.into_iter().map(|x| x.3).collect()
    }

    /// Whether unit `u` holds the components of a casting.
    fn supplied(&self, u: usize, consumes: &[(String, u32)]) -> bool {
        let have = &self.units[u].supplies;
        consumes.iter().all(|(t, n)| have.iter().any(|x| &x.0 == t && x.1 >= *n))
    }

    /// CMB-SPELL: the units a battlefield enchantment of unit `u` falls on, by its
    /// aim, within `range` squares of the caster (0: anywhere), in the order they
    /// stand (square by square, then as they came).
    fn charm_targets(&self, u: usize, aim: Aim, range: u32) -> Vec<usize> {
        if aim == Aim::Caster {
            return vec![u];
        }
        let me = &self.units[u];
        let s = self.side(u) as usize;
        let sides: &[usize] = match aim {
            Aim::Friends | Aim::FriendlyLeaders => &[0],
            Aim::Enemies | Aim::EnemyLeaders => &[1],
            _ => &[0, 1],
        };
        let leaders = matches!(aim, Aim::EnemyLeaders | Aim::FriendlyLeaders);
        let mut v = Vec::new();
        for (x, y) in self.all_squares() {
            if range > 0 && (x - me.x).abs() + (y - me.y).abs() > range as i32 {
                continue;
            }
            for &rel in sides {
                let side = if rel == 0 { s } else { 1 - s };
                for &i in &self.squares[self.sq(x, y)][side] {
                    if self.active(i) && (!leaders || self.a.fighters[i].leader) {
                        v.push(i);
                    }
                }
            }
        }
        v
    }

    /// Unit `u`'s spell calls the creatures of reserve `r`: their figures join them,
    /// on the caster's square or where their tactics put them when they were not on
    /// the field (they act from the next round).
    fn call(&mut self, u: usize, r: usize) {
        let a = self.a;
        let f = &a.fighters[r];
        let side = f.side as usize;
        let life = f.stats.life.max(1) as u32;
        if !self.active(r) {
            let (x, y) = if f.reserve.as_ref().is_some_and(|x| x.at_caster) {
                (self.units[u].x, self.units[u].y)
            } else {
                start_square(a, f)
            };
            let (from, to) = (self.sq(self.units[r].x, self.units[r].y), self.sq(x, y));
            if let Some(k) = self.squares[from][side].iter().position(|&j| j == r) {
                self.squares[from][side].swap_remove(k);
            }
            self.squares[to][side].push(r);
            let unit = &mut self.units[r];
            (unit.x, unit.y, unit.home_x) = (x, y, x);
            unit.out = false;
            unit.rear_rounds = 0;
            unit.movement = f.movement;
        }
        let unit = &mut self.units[r];
        unit.figs.extend(std::iter::repeat_n(Fig { life, wounded: false }, f.figures as usize));
        unit.deeds.called += f.figures;
        self.lines.push(Line::Summon { unit: a.fighters[u].id.clone(), summoned: f.id.clone(), figures: f.figures });
    }

    /// Puts the enchantments of `c`, cast by unit `u`, on `targets` for their rounds
    /// (a second casting adds its rounds to what is left).
    fn charm(&mut self, u: usize, c: &Charming, targets: &[usize]) {
        let round = self.round;
        for charm in &c.charms {
            let last = round + charm.rounds.max(1) - 1;
            for &t in targets {
                let unit = &mut self.units[t];
                match unit.charms.iter_mut().find(|x| x.0.tag == charm.tag) {
                    Some(x) => x.1 += charm.rounds.max(1),
                    None => {
                        unit.charms.push((charm.clone(), last));
                        let more = charm.stats.life.max(0) as u32;
                        for f in &mut unit.figs {
                            f.life += more;
                        }
                    }
                }
                self.recharm(t);
            }
            self.lines.push(Line::Charm {
                unit: self.a.fighters[u].id.clone(),
                effect: charm.tag.clone(),
                rounds: charm.rounds.max(1),
                units: targets.iter().map(|&t| self.a.fighters[t].id.clone()).collect(),
            });
        }
    }

    /// One attack of `n` figures of unit `u` (CMB-TARGET to CMB-WOUND, CMB-MISSILE,
    /// CMB-FLY).
    #[allow(clippy::too_many_arguments)]
    fn attack(
        &mut self,
        rng: &mut ChaCha8Rng,
        u: usize,
        n: u32,
        reach: Reach,
        bonus: &Stats,
        (name, damage): (&str, Option<&str>),
        targets: &[usize],
    ) {
        let r = self.r;
        let attacker = &self.a.fighters[u];
        let obs = attacker.stats.observation + self.units[u].charmed.observation;
        let flies = self.flies(u);
        // CMB-TARGET: a stealthier target avoids the attack by chance. Targets are
        // taken in order until there is a figure for each attacking figure; the
        // rest are not reached (and roll nothing).
        let mut reachable: Vec<usize> = Vec::new();
        let mut covered = 0usize;
        for &t in targets {
            if covered >= n as usize {
                break;
            }
            let diff = i64::from(self.stealth(t)) - i64::from(obs);
            if diff > 0 && chance(rng, diff * i64::from(r.avoid_percent_per_stealth)) {
                continue;
            }
            reachable.push(t);
            covered += self.units[t].figs.len();
        }
        if reachable.is_empty() {
            self.lines.push(Line::Attack {
                unit: attacker.id.clone(),
                action: name.into(),
                damage: damage.map(str::to_string),
                figures: n,
                targets: vec![],
            });
            return;
        }
        let mut blows: Vec<Blow> = reachable
            .iter()
            .map(|&t| Blow { unit: self.a.fighters[t].id.clone(), strikes: 0, hits: 0, kills: 0 })
            .collect();
        let sizes: Vec<usize> = reachable.iter().map(|&t| self.units[t].figs.len()).collect();
        let total: usize = sizes.iter().sum();
        let missile = matches!(reach, Reach::Ranged(_));
        for k in 0..n as usize {
            // Each figure takes a different target figure where it can.
            let mut slot = k % total;
            let mut ti = 0;
            while slot >= sizes[ti] {
                slot -= sizes[ti];
                ti += 1;
            }
            // The figure chosen may have fallen to an earlier blow: the next alive.
            let mut found = None;
            for step in 0..total {
                let (mut a, mut b) = (ti, slot + step);
                while b >= sizes[a] {
                    b -= sizes[a];
                    a = (a + 1) % sizes.len();
                }
                let t = reachable[a];
                if self.units[t].figs[b].life > 0 {
                    found = Some((a, b));
                    break;
                }
            }
            let Some((bi, fi)) = found else { break };
            let t = reachable[bi];
            blows[bi].strikes += 1;
            let fs = plus(&self.figure_now(u, k), bonus);
            let target = &self.a.fighters[t];
            let ts = self.figure_now(t, fi);
            let target_flies = self.flies(t);
            let air = if flies && !target_flies { r.flyer_attack } else { 0 };
            let a = if missile { fs.missile } else { fs.melee } + air;
            // CMB-STRIKE: the figure strikes at all.
            if !chance(rng, i64::from(r.strike_percent) + i64::from(r.strike_percent_per_attack) * i64::from(a.max(0)))
            {
                continue;
            }
            let mut d = ts.defense;
            if self.units[t].parried {
                d += ts.melee.max(0);
            }
            if target_flies && !flies {
                d += if missile { r.flyer_missile_defense } else { r.flyer_melee_defense };
            }
            if missile {
                d = d.max(0) / r.missile_defense_divisor.max(1) as i32;
            }
            if !missile {
                self.units[t].meleed = true;
            }
            if !hits(rng, a, d) {
                continue;
            }
            blows[bi].hits += 1;
            self.wounds = true;
            // CMB-WOUND: all the damage lands; only the last blow may be a mere wound.
            let deadly = a.max(0) > d.max(0)
                || chance(
                    rng,
                    i64::from(r.deadly_percent)
                        + i64::from(r.deadly_percent_per_combat) * i64::from(attacker.base_melee.max(0)),
                );
            let damage = if missile { fs.ranged_damage } else { fs.damage }.max(1) as u32;
            let fig = &mut self.units[t].figs[fi];
            for blow in 0..damage {
                if fig.life == 0 {
                    break;
                }
                if blow + 1 < damage || deadly || fig.wounded {
                    fig.life -= 1;
                } else {
                    fig.wounded = true;
                }
            }
            if fig.life == 0 {
                blows[bi].kills += 1;
                let side = target.side as usize;
                if !target.fanatic && target.reserve.is_none() {
                    self.killed[side] += 1;
                }
                self.round_killed[side] += 1;
            }
        }
        for &t in &reachable {
            self.units[t].figs.retain(|f| f.life > 0);
        }
        blows.retain(|b| b.strikes > 0);
        self.lines.push(Line::Attack {
            unit: attacker.id.clone(),
            action: name.into(),
            damage: damage.map(str::to_string),
            figures: n,
            targets: blows,
        });
    }

    /// CMB-MOVES: a unit's one move of the round (flyers go as far as their setting
    /// takes them).
    fn move_unit(&mut self, u: usize) {
        let start = (self.units[u].x, self.units[u].y);
        let steps = if self.flies(u) { (self.rows + self.a.files as i32) as usize } else { 1 };
        for _ in 0..steps {
            match self.step(u) {
                Some((x, y)) if (x, y) != (self.units[u].x, self.units[u].y) => {
                    let (from, to, side) = (self.sq(self.units[u].x, self.units[u].y), self.sq(x, y), self.side(u));
                    let list = &mut self.squares[from][side as usize];
                    if let Some(k) = list.iter().position(|&j| j == u) {
                        list.swap_remove(k);
                    }
                    self.squares[to][side as usize].push(u);
                    self.units[u].x = x;
                    self.units[u].y = y;
                }
                _ => break,
            }
        }
        let u_ = &mut self.units[u];
        if (u_.x, u_.y) != start {
            u_.moved = true;
            let (x, y) = (u_.x, u_.y);
            let to = self.square(self.side(u), x, y);
            self.lines.push(Line::Move { unit: self.a.fighters[u].id.clone(), to });
        }
    }

    /// Where unit `u`'s setting takes it by one square, if anywhere.
    fn step(&self, u: usize) -> Option<(i32, i32)> {
        let me = &self.units[u];
        let s = self.side(u);
        let (x, y) = (me.x, me.y);
        let fwd = self.forward(u);
        let free = |x: i32, y: i32| self.inside(x, y) && !self.enemy_at(s, x, y);
        let advance = || free(x, y + fwd).then_some((x, y + fwd));
        let sweep_holds = || self.enemy_at(s, x - 1, y) || self.enemy_at(s, x + 1, y);
        let toward = |to: i32| if to > x { x + 1 } else { x - 1 };
        let fire_ok = || free(x, y + fwd) && self.nearest_enemy(s, x, y + fwd).is_none_or(|(d, _)| d >= 2);
        match me.movement {
            Move::Stand => None,
            Move::Advance => advance(),
            Move::Sweep => {
                if sweep_holds() {
                    None
                } else {
                    advance()
                }
            }
            Move::Flank => {
                let centre = (self.a.files as i32 - 1) / 2;
                let in_rank = (0..self.a.files as i32).any(|ex| ex != x && self.enemy_at(s, ex, y));
                if in_rank && x != centre {
                    let nx = toward(centre);
                    free(nx, y).then_some((nx, y))
                } else if !in_rank && x != me.home_x {
                    let nx = toward(me.home_x);
                    free(nx, y).then_some((nx, y))
                } else if sweep_holds() {
                    None
                } else {
                    advance()
                }
            }
            Move::Charge => {
                let (d, t) = self.nearest_enemy(s, x, y)?;
                if d <= 1 {
                    return None;
                }
                let t = &self.units[t];
                let dy = (t.y - y).signum();
                let dx = (t.x - x).signum();
                if dy != 0 && free(x, y + dy) {
                    Some((x, y + dy))
                } else if dx != 0 && free(x + dx, y) {
                    Some((x + dx, y))
                } else {
                    None
                }
            }
            Move::Fire => fire_ok().then_some((x, y + fwd)),
            Move::Support => {
                if self.nearest_enemy(s, x, y).is_some_and(|(d, _)| d <= 1) {
                    free(x, y - fwd).then_some((x, y - fwd))
                } else {
                    fire_ok().then_some((x, y + fwd))
                }
            }
            Move::Flee | Move::Retreat => {
                let rear = self.rear_row(u);
                if y != rear {
                    let ny = y - fwd;
                    return free(x, ny).then_some((x, ny));
                }
                // At the rear: toward the file with the fewest enemies in it.
                let exposure = |fx: i32| -> usize {
                    (0..self.rows).flat_map(|ey| self.enemies_on(s, fx, ey)).map(|i| self.units[i].figs.len()).sum()
                };
                let best = (0..self.a.files as i32).min_by_key(|&fx| (exposure(fx), (fx - x).abs()))?;
                if best == x || exposure(best) >= exposure(x) {
                    return None;
                }
                let nx = toward(best);
                free(nx, y).then_some((nx, y))
            }
        }
    }
}
