//! Typed orders: what one order line means, and how it is written back.
//!
//! An order line is `-+@Dnn ORDER arguments` (PFX-FORM): any number of dashes, an
//! optional `+`, then `@` *or* a duration, then an optional day restriction, then the
//! order. [`Entry`] holds the prefix and the [`Order`]; its `Display` writes the
//! canonical text the order template shows, which reads back to the same entry.
//!
//! Items, skills and races are interned ids, resolved through a [`Vocabulary`] when a
//! line is read. Units, locations, structures and factions are kept as their ids
//! (`U12`, `L3`, `B2`, `f01`, or a new id such as `f06nU01`): the world resolves them
//! when the order runs.

use crate::core::orders::text::quoted;
use crate::systems::overlord::data::ids::{ItemId, RaceId, SkillId};
use crate::systems::overlord::data::{RaceKind, Tag};
use std::fmt;

/// The repetition part of a prefix: none, `@`, or a duration in days.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Repeat {
    /// No prefix: the order runs once (one day for a full-day order).
    #[default]
    Once,
    /// `@`: the order stays in the list after running (PFX-REPEAT).
    Always,
    /// `N`: the order runs on N days (PFX-DUR).
    Days(u32),
}

/// The prefixes of an order line (PFX-FORM).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Prefix {
    /// Leading dashes: the order is not considered while it has any (PFX-DASH).
    pub dashes: u8,
    /// `+`: an alternative, removed when an order before it runs (PFX-PLUS).
    pub plus: bool,
    /// `@` or a duration.
    pub repeat: Repeat,
    /// `Dnn`: the order is considered only on day nn (PFX-DAY).
    pub day: Option<u32>,
}

/// One entry of a unit's order list: prefixes and order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The prefixes.
    pub prefix: Prefix,
    /// The order.
    pub order: Order,
}

/// A place an order names: a location or a structure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// A location id (`L12`).
    Location(Tag),
    /// A structure id (`B3`, or a new one such as `f06nB01`).
    Structure(Tag),
}

/// What ATTACK, TARGET and GET may name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A unit id.
    Unit(Tag),
    /// A location id.
    Location(Tag),
    /// A structure id.
    Structure(Tag),
    /// A faction id.
    Faction(Tag),
    /// A construction tag (TARGET of a building skill: what to build).
    Construction(Tag),
}

/// Where MOVE and MARCH go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// A direction tag of the rule set (`N`, `SE`, `IN`…), as the rule set spells it.
    Direction(Tag),
    /// A location id.
    Location(Tag),
}

/// A unit or faction setting (SETTING, FAC-SETTING, SET-*).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Setting {
    /// Anyone who sees the unit sees its faction.
    Advertise,
    /// The unit is seen by anyone observing the location.
    Announce,
    /// The unit eats available food for its upkeep.
    Consume,
    /// Routine activity is left out of the report.
    Silent,
    /// The unit shares its food with units in the same location.
    Share,
    /// Upkeep comes from faction funds first.
    Support,
    /// Battle reports are summaries.
    Terse,
}

impl Setting {
    /// Every setting, in the order of the rules text.
    pub const ALL: [Setting; 7] = [
        Setting::Advertise,
        Setting::Announce,
        Setting::Consume,
        Setting::Silent,
        Setting::Share,
        Setting::Support,
        Setting::Terse,
    ];
    /// The keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            Setting::Advertise => "ADVERTISE",
            Setting::Announce => "ANNOUNCE",
            Setting::Consume => "CONSUME",
            Setting::Silent => "SILENT",
            Setting::Share => "SHARE",
            Setting::Support => "SUPPORT",
            Setting::Terse => "TERSE",
        }
    }
}

/// One action of a COMBAT list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CombatAction {
    /// Attack hand to hand.
    Melee,
    /// Defend against melee.
    Parry,
    /// Use the equipped ranged weapon.
    Ranged,
    /// Use a skill or spell.
    Skill(SkillId),
    /// Use an item.
    Item(ItemId),
}

/// Battle settings of TACTIC, as tags of the rule set's combat tables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tactic {
    /// AVOID / DEFEND / FIGHT.
    pub stance: Tag,
    /// FRONT / MIDDLE / REAR.
    pub rank: Tag,
    /// LEFT / CENTER / RIGHT.
    pub file: Tag,
    /// FLEE / RETREAT / STAND / ADVANCE / SWEEP / FLANK / CHARGE / FIRE / SUPPORT.
    pub movement: Tag,
}

/// A unit order (checklist §6). Argument names follow the rules' order reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Order {
    /// `ACCEPT unit`: let that unit STACK under this one.
    Accept(Tag),
    /// `AT place`: condition, true while at the place.
    At(Place),
    /// `ATTACK unit|faction|structure`.
    Attack(Target),
    /// `BESTOW unit`: hand over this unit's title.
    Bestow(Tag),
    /// `BUILD skill [construction|structure] [count]`: TARGET then USE (RULINGS §14).
    Build { skill: SkillId, what: Option<Target>, count: Option<u32> },
    /// `BUY number item [price]`.
    Buy { count: u32, item: ItemId, price: Option<u32> },
    /// `CANCEL title location`.
    Cancel { title: Tag, location: Tag },
    /// `CARAVAN location location …`.
    Caravan(Vec<Tag>),
    /// `CHRISTEN "name"`.
    Christen(String),
    /// `CLAIM title [location] [FREE]`.
    Claim { title: Tag, location: Option<Tag>, free: bool },
    /// `COMBAT action …`.
    Combat(Vec<CombatAction>),
    /// `DAY n`: condition, true on day n.
    Day(u32),
    /// `DESCRIBE ["text"]`.
    Describe(String),
    /// `DISBAND CONFIRM`.
    Disband,
    /// `DROP item [number [kept]]`.
    Drop { item: ItemId, count: Option<u32>, kept: Option<u32> },
    /// `EJECT unit`.
    Eject(Tag),
    /// `ENTER structure`.
    Enter(Tag),
    /// `EQUIP item [number]`.
    Equip { item: ItemId, count: Option<u32> },
    /// `EXIT [structure]`.
    Exit(Option<Tag>),
    /// `FORGET skill`.
    Forget(SkillId),
    /// `GET unit|location [number] item [left]`.
    Get { from: Target, count: Option<u32>, item: ItemId, left: Option<u32> },
    /// `GIVE unit item [number [kept]]`.
    Give { to: Tag, item: ItemId, count: Option<u32>, kept: Option<u32> },
    /// `GIVE receiver unit`: a whole unit changes faction at the end of the month
    /// (UNIT-XFER).
    GiveUnit { to: Tag, unit: Tag },
    /// `GUARD`.
    Guard,
    /// `HAVE item [number]`: condition.
    Have { item: ItemId, count: u32 },
    /// `LEADER unit`: condition, true if that unit leads this one's stack.
    Leader(Tag),
    /// `LEADING unit`: condition, true if that unit is in the stack this one leads.
    Leading(Tag),
    /// `LEAVE [structure]`.
    Leave(Option<Tag>),
    /// `MARCH direction|location`.
    March(Destination),
    /// `MERGE unit number`.
    Merge { into: Tag, count: u32 },
    /// `MOVE direction|location`.
    Move(Destination),
    /// `NAME "name"`.
    Name(String),
    /// `OATH unit`.
    Oath(Tag),
    /// `PATROL`.
    Patrol,
    /// `PILLAGE`.
    Pillage,
    /// `PROMOTE unit`.
    Promote(Tag),
    /// `RECRUIT unit number race price`.
    Recruit { unit: Tag, count: u32, race: RaceId, price: u32 },
    /// `RETREAT`.
    Retreat,
    /// `SEE unit`: condition.
    See(Tag),
    /// `SELL number item [price]`.
    Sell { count: u32, item: ItemId, price: Option<u32> },
    /// `SETTING name ON|OFF`.
    Setting { setting: Setting, on: bool },
    /// `SIZE number`: condition.
    Size(u32),
    /// `SKILL skill number [LEVEL|DAYS]`: condition.
    Skill { skill: SkillId, amount: u32, days: bool },
    /// `SPLIT new-unit number`.
    Split { new: Tag, count: u32 },
    /// `STACK [unit]`.
    Stack(Option<Tag>),
    /// `STANCE faction stance`.
    Stance { faction: Tag, stance: Tag },
    /// `STAY`.
    Stay,
    /// `STUDY skill [level]`.
    Study { skill: SkillId, level: Option<u32> },
    /// `SWAP unit n1 item1 n2 item2`.
    Swap { with: Tag, give: (u32, ItemId), take: (u32, ItemId) },
    /// `SYNCHRO unit`: special condition.
    Synchro(Tag),
    /// `TACTIC stance rank file move`.
    Tactic(Tactic),
    /// `TARGET unit|location|structure|construction`.
    Target(Target),
    /// `TEACH [unit] skill [unit skill …]`; a missing student (`@TEACH cmbt`, as the
    /// reference data writes it) teaches whoever studies the skill here.
    Teach(Vec<(Option<Tag>, SkillId)>),
    /// `UNSTACK`.
    Unstack,
    /// `USE skill [products]`.
    Use { skill: SkillId, count: Option<u32> },
    /// `WAIT days`: condition; the number counts down day by day.
    Wait(u32),
    /// `WITHDRAW amount [item]`.
    Withdraw { amount: u32, item: Option<ItemId> },
    /// `WORK`.
    Work,
    /// `YIELD [title]`.
    Yield(Option<Tag>),
    /// A line that could not be read: kept with its text so that the template shows
    /// it, and removed as invalid when the list reaches it (PFX-REMOVE).
    Unreadable { text: String, reason: String },
}

/// How long an order takes (PFX-KIND, SCH-*).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Duration {
    /// Takes no time; any number run in a day.
    Immediate,
    /// One per day, after all immediate orders.
    FullDay,
    /// Immediate, but halves the day's full-day order (GUARD, PATROL; SCH-HALF).
    HalfDay,
    /// A full-day order that starts a journey (MOVE, MARCH, CARAVAN).
    Movement,
}

/// What an order is (PFX-KIND).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nature {
    /// An ordinary order.
    Plain,
    /// A condition: ignores `@`, and leaves the list once true.
    Condition,
    /// A one-shot order: ignores a duration, leaves the list once run.
    OneShot,
    /// Depends on another unit's action (ACCEPT, RETREAT, STAY, SYNCHRO).
    Special,
}

/// Which kinds of unit may give an order (PFX-KIND).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who {
    /// Any unit.
    Any,
    /// Leader units only.
    Leader,
    /// Leaders and creatures (followers only with a skill that lets them).
    LeaderOrCreature,
    /// Followers and creatures.
    FollowerOrCreature,
    /// Leaders and followers.
    LeaderOrFollower,
    /// Any unit but creatures.
    NotCreature,
}

impl Who {
    /// Whether a unit of race kind `kind` may give the order. Followers may give
    /// [`Who::LeaderOrCreature`] orders (MOVE, MARCH…): whether they have the skill
    /// that lets them is the mechanic's check.
    pub fn allows(self, kind: RaceKind) -> bool {
        use RaceKind::*;
        match self {
            Who::Any | Who::LeaderOrCreature => true,
            Who::Leader => kind == Leader,
            Who::FollowerOrCreature => kind != Leader,
            Who::LeaderOrFollower | Who::NotCreature => kind != Creature,
        }
    }

    /// The kinds of unit, in words: "leaders", "followers and creatures"…
    pub fn text(self) -> &'static str {
        match self {
            Who::Any => "any unit",
            Who::Leader => "leaders",
            Who::LeaderOrCreature => "leaders and creatures",
            Who::FollowerOrCreature => "followers and creatures",
            Who::LeaderOrFollower | Who::NotCreature => "leaders and followers",
        }
    }
}

/// Calls `$f` on every unit or structure id an order names, through shared or
/// mutable references (as `$order` is): one list of cases for reading and renaming.
macro_rules! visit_references {
    ($order:expr, $f:expr) => {{
        #[allow(unused_mut)]
        let mut f = $f;
        match $order {
            Order::Accept(u)
            | Order::Bestow(u)
            | Order::Eject(u)
            | Order::Enter(u)
            | Order::Leader(u)
            | Order::Leading(u)
            | Order::Oath(u)
            | Order::Promote(u)
            | Order::See(u)
            | Order::Synchro(u)
            | Order::Give { to: u, .. }
            | Order::Merge { into: u, .. }
            | Order::Recruit { unit: u, .. }
            | Order::Split { new: u, .. }
            | Order::Swap { with: u, .. }
            | Order::At(Place::Structure(u))
            | Order::Exit(Some(u))
            | Order::Leave(Some(u))
            | Order::Stack(Some(u))
            | Order::Attack(Target::Unit(u) | Target::Structure(u))
            | Order::Target(Target::Unit(u) | Target::Structure(u))
            | Order::Get { from: Target::Unit(u) | Target::Structure(u), .. }
            | Order::Build { what: Some(Target::Unit(u) | Target::Structure(u)), .. } => f(u),
            Order::GiveUnit { to, unit } => {
                f(to);
                f(unit);
            }
            Order::Teach(list) => {
                for (u, _) in list {
                    if let Some(u) = u {
                        f(u);
                    }
                }
            }
            _ => {}
        }
    }};
}

/// Declares [`Keyword`] and the order reference's table: for each unit order, its
/// keyword, how long it takes, what it is and who may give it.
macro_rules! keywords {
    ($($variant:ident $text:literal $duration:ident $nature:ident $who:ident,)*) => {
        /// The keyword of a unit order (checklist §6), in alphabetical order.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Keyword {
            $(
                #[doc = $text]
                $variant,
            )*
        }

        impl Keyword {
            /// Every keyword, in alphabetical order (as [`Keyword`] numbers them).
            pub const ALL: &[Keyword] = &[$(Keyword::$variant,)*];

            /// The keyword as players write it (`"GIVE"`).
            pub fn text(self) -> &'static str {
                match self {
                    $(Keyword::$variant => $text,)*
                }
            }

            /// How long the order takes, what it is and who may give it, as the
            /// order reference says.
            pub const fn info(self) -> (Duration, Nature, Who) {
                match self {
                    $(Keyword::$variant => (Duration::$duration, Nature::$nature, Who::$who),)*
                }
            }
        }
    };
}

keywords! {
    Accept "ACCEPT" Immediate Special Any,
    At "AT" Immediate Condition Any,
    Attack "ATTACK" FullDay Plain Any,
    Bestow "BESTOW" Immediate OneShot Leader,
    Build "BUILD" FullDay Plain Any,
    Buy "BUY" Immediate Plain Leader,
    Cancel "CANCEL" Immediate Plain Leader,
    Caravan "CARAVAN" Movement Plain LeaderOrCreature,
    Christen "CHRISTEN" Immediate OneShot Any,
    Claim "CLAIM" FullDay Plain Leader,
    Combat "COMBAT" Immediate OneShot Any,
    Day "DAY" Immediate Condition Any,
    Describe "DESCRIBE" Immediate OneShot Any,
    Disband "DISBAND" Immediate OneShot Any,
    Drop "DROP" Immediate Plain Any,
    Eject "EJECT" Immediate Plain Leader,
    Enter "ENTER" Immediate OneShot Any,
    Equip "EQUIP" Immediate Plain Any,
    Exit "EXIT" Immediate OneShot Any,
    Forget "FORGET" Immediate OneShot Any,
    Get "GET" Immediate Plain Any,
    Give "GIVE" Immediate Plain Any,
    Guard "GUARD" HalfDay Plain Any,
    Have "HAVE" Immediate Condition Any,
    Leader "LEADER" Immediate Condition Any,
    Leading "LEADING" Immediate Condition Leader,
    Leave "LEAVE" Immediate OneShot Any,
    March "MARCH" Movement OneShot LeaderOrCreature,
    Merge "MERGE" Immediate Plain FollowerOrCreature,
    Move "MOVE" Movement OneShot LeaderOrCreature,
    Name "NAME" Immediate OneShot Any,
    Oath "OATH" Immediate OneShot Any,
    Patrol "PATROL" HalfDay Plain Any,
    Pillage "PILLAGE" FullDay Plain Any,
    Promote "PROMOTE" Immediate OneShot Any,
    Recruit "RECRUIT" Immediate Plain Leader,
    Retreat "RETREAT" Immediate Special Any,
    See "SEE" Immediate Condition Any,
    Sell "SELL" Immediate Plain Leader,
    Setting "SETTING" Immediate OneShot Any,
    Size "SIZE" Immediate Condition Any,
    Skill "SKILL" Immediate Condition Any,
    Split "SPLIT" Immediate Plain FollowerOrCreature,
    Stack "STACK" Immediate OneShot Any,
    Stance "STANCE" Immediate OneShot Any,
    Stay "STAY" Immediate Special Any,
    Study "STUDY" FullDay Plain NotCreature,
    Swap "SWAP" Immediate Plain Any,
    Synchro "SYNCHRO" Immediate Condition Any,
    Tactic "TACTIC" Immediate OneShot Any,
    Target "TARGET" Immediate OneShot Any,
    Teach "TEACH" FullDay Plain Leader,
    Unstack "UNSTACK" Immediate OneShot Any,
    Use "USE" FullDay Plain Any,
    Wait "WAIT" Immediate Condition Any,
    Withdraw "WITHDRAW" Immediate Plain Any,
    Work "WORK" FullDay Plain LeaderOrFollower,
    Yield "YIELD" Immediate OneShot Leader,
}

/// [`Keyword::info`] by [`Order::index`], the unreadable line last: a table for the
/// scheduler's hot paths.
const INFO: [(Duration, Nature, Who); Keyword::ALL.len() + 1] = {
    let mut t = [(Duration::Immediate, Nature::OneShot, Who::Any); Keyword::ALL.len() + 1];
    let mut i = 0;
    while i < Keyword::ALL.len() {
        t[i] = Keyword::ALL[i].info();
        i += 1;
    }
    t
};

impl Keyword {
    /// The keyword written `word` (any case).
    pub fn parse(word: &str) -> Option<Keyword> {
        Keyword::ALL.iter().copied().find(|k| k.text().eq_ignore_ascii_case(word))
    }
}

impl Order {
    /// An index for tables of per-order data: the keyword's place in
    /// [`Keyword::ALL`], or `Keyword::ALL.len()` for a line that could not be read.
    pub fn index(&self) -> usize {
        match self {
            Order::Accept(_) => Keyword::Accept as usize,
            Order::At(_) => Keyword::At as usize,
            Order::Attack(_) => Keyword::Attack as usize,
            Order::Bestow(_) => Keyword::Bestow as usize,
            Order::Build { .. } => Keyword::Build as usize,
            Order::Buy { .. } => Keyword::Buy as usize,
            Order::Cancel { .. } => Keyword::Cancel as usize,
            Order::Caravan(_) => Keyword::Caravan as usize,
            Order::Christen(_) => Keyword::Christen as usize,
            Order::Claim { .. } => Keyword::Claim as usize,
            Order::Combat(_) => Keyword::Combat as usize,
            Order::Day(_) => Keyword::Day as usize,
            Order::Describe(_) => Keyword::Describe as usize,
            Order::Disband => Keyword::Disband as usize,
            Order::Drop { .. } => Keyword::Drop as usize,
            Order::Eject(_) => Keyword::Eject as usize,
            Order::Enter(_) => Keyword::Enter as usize,
            Order::Equip { .. } => Keyword::Equip as usize,
            Order::Exit(_) => Keyword::Exit as usize,
            Order::Forget(_) => Keyword::Forget as usize,
            Order::Get { .. } => Keyword::Get as usize,
            Order::Give { .. } | Order::GiveUnit { .. } => Keyword::Give as usize,
            Order::Guard => Keyword::Guard as usize,
            Order::Have { .. } => Keyword::Have as usize,
            Order::Leader(_) => Keyword::Leader as usize,
            Order::Leading(_) => Keyword::Leading as usize,
            Order::Leave(_) => Keyword::Leave as usize,
            Order::March(_) => Keyword::March as usize,
            Order::Merge { .. } => Keyword::Merge as usize,
            Order::Move(_) => Keyword::Move as usize,
            Order::Name(_) => Keyword::Name as usize,
            Order::Oath(_) => Keyword::Oath as usize,
            Order::Patrol => Keyword::Patrol as usize,
            Order::Pillage => Keyword::Pillage as usize,
            Order::Promote(_) => Keyword::Promote as usize,
            Order::Recruit { .. } => Keyword::Recruit as usize,
            Order::Retreat => Keyword::Retreat as usize,
            Order::See(_) => Keyword::See as usize,
            Order::Sell { .. } => Keyword::Sell as usize,
            Order::Setting { .. } => Keyword::Setting as usize,
            Order::Size(_) => Keyword::Size as usize,
            Order::Skill { .. } => Keyword::Skill as usize,
            Order::Split { .. } => Keyword::Split as usize,
            Order::Stack(_) => Keyword::Stack as usize,
            Order::Stance { .. } => Keyword::Stance as usize,
            Order::Stay => Keyword::Stay as usize,
            Order::Study { .. } => Keyword::Study as usize,
            Order::Swap { .. } => Keyword::Swap as usize,
            Order::Synchro(_) => Keyword::Synchro as usize,
            Order::Tactic(_) => Keyword::Tactic as usize,
            Order::Target(_) => Keyword::Target as usize,
            Order::Teach(_) => Keyword::Teach as usize,
            Order::Unstack => Keyword::Unstack as usize,
            Order::Use { .. } => Keyword::Use as usize,
            Order::Wait(_) => Keyword::Wait as usize,
            Order::Withdraw { .. } => Keyword::Withdraw as usize,
            Order::Work => Keyword::Work as usize,
            Order::Yield(_) => Keyword::Yield as usize,
            Order::Unreadable { .. } => Keyword::ALL.len(),
        }
    }

    /// The order's keyword, or `None` for a line that could not be read.
    pub fn kind(&self) -> Option<Keyword> {
        Keyword::ALL.get(self.index()).copied()
    }

    /// The order's keyword as written (`"?"` for a line that could not be read).
    pub fn keyword(&self) -> &'static str {
        self.kind().map_or("?", Keyword::text)
    }

    /// How long the order takes, what it is and who may give it, as the order
    /// reference says. A line that could not be read is an immediate one-shot that
    /// any unit may give (it is removed when reached).
    pub fn info(&self) -> (Duration, Nature, Who) {
        INFO[self.index()]
    }

    /// How long the order takes.
    pub fn duration(&self) -> Duration {
        self.info().0
    }
    /// What the order is.
    pub fn nature(&self) -> Nature {
        self.info().1
    }
    /// Who may give it.
    pub fn who(&self) -> Who {
        self.info().2
    }
    /// Whether the order is run in the immediate passes (immediate and half-day orders).
    pub fn is_immediate(&self) -> bool {
        matches!(self.duration(), Duration::Immediate | Duration::HalfDay)
    }

    /// Every id of a unit or structure the order names, for the new-id rules
    /// (FILE-NEWID-LIFE).
    pub fn references(&self) -> Vec<&str> {
        let mut out: Vec<&Tag> = Vec::new();
        visit_references!(self, |t| out.push(t));
        out.into_iter().map(String::as_str).collect()
    }

    /// Replaces every reference to `old` by `new` (a new id that became permanent).
    pub fn rename_reference(&mut self, old: &str, new: &str) {
        visit_references!(self, |t: &mut Tag| if t == old {
            *t = new.to_string()
        });
    }
}

/// Turns interned ids back into tags, and checks the words of the rule set's lists.
/// The engine's [`crate::systems::overlord::world::Catalog`] is the vocabulary of a game.
pub trait Vocabulary {
    /// The item named `word` (any case).
    fn item(&self, word: &str) -> Option<ItemId>;
    /// The skill named `word` (any case).
    fn skill(&self, word: &str) -> Option<SkillId>;
    /// The race named `word` (any case).
    fn race(&self, word: &str) -> Option<RaceId>;
    /// The tag of an item.
    fn item_tag(&self, id: ItemId) -> &str;
    /// The tag of a skill.
    fn skill_tag(&self, id: SkillId) -> &str;
    /// The tag of a race.
    fn race_tag(&self, id: RaceId) -> &str;
    /// The rule set's spelling of `word` in one of its word lists, if listed there.
    fn word(&self, list: WordList, word: &str) -> Option<&str>;
    /// The most orders a unit's list holds (FILE-LIMIT).
    fn max_orders(&self) -> usize;
}

/// The word lists of a rule set that orders use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordList {
    /// Directions of movement (`N`, `IN`…).
    Direction,
    /// Diplomatic stances (`ally`…).
    Stance,
    /// Combat stances (`fight`, `defend`, `avoid`…).
    CombatStance,
    /// Battlefield ranks.
    Rank,
    /// Battlefield files.
    File,
    /// Combat moves.
    CombatMove,
    /// Constructions (buildings and vessels).
    Construction,
    /// Titles.
    Title,
}

/// Writes an entry in canonical form, with tags from a vocabulary.
pub struct Written<'a, V: Vocabulary + ?Sized> {
    entry: &'a Entry,
    vocabulary: &'a V,
}

impl Entry {
    /// The entry as text: `Display` of the result gives the canonical order line.
    pub fn written<'a, V: Vocabulary + ?Sized>(&'a self, vocabulary: &'a V) -> Written<'a, V> {
        Written { entry: self, vocabulary }
    }
}

fn opt<T: fmt::Display>(v: &Option<T>) -> String {
    v.as_ref().map(|v| format!(" {v}")).unwrap_or_default()
}

impl<V: Vocabulary + ?Sized> fmt::Display for Written<'_, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.vocabulary;
        let p = &self.entry.prefix;
        for _ in 0..p.dashes {
            f.write_str("-")?;
        }
        if p.plus {
            f.write_str("+")?;
        }
        match p.repeat {
            Repeat::Once => {}
            Repeat::Always => f.write_str("@")?,
            Repeat::Days(n) => write!(f, "{n} ")?,
        }
        if let Some(d) = p.day {
            write!(f, "D{d} ")?;
        }
        let order = &self.entry.order;
        if let Order::Unreadable { text, .. } = order {
            return f.write_str(text);
        }
        f.write_str(order.keyword())?;
        let item = |i: ItemId| v.item_tag(i).to_string();
        let skill = |s: SkillId| v.skill_tag(s).to_string();
        let target = |t: &Target| match t {
            Target::Unit(x) | Target::Location(x) | Target::Structure(x) | Target::Faction(x) => x.clone(),
            Target::Construction(x) => x.clone(),
        };
        let rest = match order {
            Order::Accept(u)
            | Order::Bestow(u)
            | Order::Eject(u)
            | Order::Enter(u)
            | Order::Leader(u)
            | Order::Leading(u)
            | Order::Oath(u)
            | Order::Promote(u)
            | Order::See(u)
            | Order::Synchro(u) => format!(" {u}"),
            Order::At(Place::Location(x) | Place::Structure(x)) => format!(" {x}"),
            Order::Attack(t) | Order::Target(t) => format!(" {}", target(t)),
            Order::Build { skill: s, what, count } => {
                format!(" {}{}{}", skill(*s), opt(&what.as_ref().map(target)), opt(count))
            }
            Order::Buy { count, item: i, price } | Order::Sell { count, item: i, price } => {
                format!(" {count} {}{}", item(*i), opt(price))
            }
            Order::Cancel { title, location } => format!(" {title} {location}"),
            Order::Caravan(list) => list.iter().map(|l| format!(" {l}")).collect(),
            Order::Christen(s) | Order::Name(s) => format!(" {}", quoted(s)),
            Order::Describe(s) => {
                if s.is_empty() {
                    String::new()
                } else {
                    format!(" {}", quoted(s))
                }
            }
            Order::Claim { title, location, free } => {
                format!(" {title}{}{}", opt(location), if *free { " FREE" } else { "" })
            }
            Order::Combat(list) => list
                .iter()
                .map(|a| match a {
                    CombatAction::Melee => " MELEE".to_string(),
                    CombatAction::Parry => " PARRY".to_string(),
                    CombatAction::Ranged => " RANGED".to_string(),
                    CombatAction::Skill(s) => format!(" {}", skill(*s)),
                    CombatAction::Item(i) => format!(" {}", item(*i)),
                })
                .collect(),
            Order::Day(n) | Order::Size(n) | Order::Wait(n) => format!(" {n}"),
            Order::Drop { item: i, count, kept } => format!(" {}{}{}", item(*i), opt(count), opt(kept)),
            Order::Equip { item: i, count } => format!(" {}{}", item(*i), opt(count)),
            Order::Exit(s) | Order::Leave(s) => opt(s),
            Order::Forget(s) => format!(" {}", skill(*s)),
            Order::Get { from, count, item: i, left } => {
                format!(" {}{} {}{}", target(from), opt(count), item(*i), opt(left))
            }
            Order::Give { to, item: i, count, kept } => format!(" {to} {}{}{}", item(*i), opt(count), opt(kept)),
            Order::GiveUnit { to, unit } => format!(" {to} {unit}"),
            Order::Have { item: i, count } => format!(" {} {count}", item(*i)),
            Order::March(d) | Order::Move(d) => match d {
                Destination::Direction(x) | Destination::Location(x) => format!(" {x}"),
            },
            Order::Merge { into, count } => format!(" {into} {count}"),
            Order::Recruit { unit, count, race, price } => format!(" {unit} {count} {} {price}", v.race_tag(*race)),
            Order::Setting { setting, on } => format!(" {} {}", setting.keyword(), if *on { "ON" } else { "OFF" }),
            Order::Skill { skill: s, amount, days } => {
                format!(" {} {amount} {}", skill(*s), if *days { "DAYS" } else { "LEVEL" })
            }
            Order::Split { new, count } => format!(" {new} {count}"),
            Order::Stack(u) => opt(u),
            Order::Stance { faction, stance } => format!(" {faction} {}", stance.to_ascii_uppercase()),
            Order::Study { skill: s, level } => format!(" {}{}", skill(*s), opt(level)),
            Order::Swap { with, give, take } => {
                format!(" {with} {} {} {} {}", give.0, item(give.1), take.0, item(take.1))
            }
            Order::Tactic(t) => format!(
                " {} {} {} {}",
                t.stance.to_ascii_uppercase(),
                t.rank.to_ascii_uppercase(),
                t.file.to_ascii_uppercase(),
                t.movement.to_ascii_uppercase()
            ),
            Order::Teach(list) => list
                .iter()
                .map(|(u, s)| match u {
                    Some(u) => format!(" {u} {}", skill(*s)),
                    None => format!(" {}", skill(*s)),
                })
                .collect(),
            Order::Use { skill: s, count } => format!(" {}{}", skill(*s), opt(count)),
            Order::Withdraw { amount, item: i } => format!(" {amount}{}", opt(&i.map(item))),
            Order::Yield(t) => opt(t),
            Order::Disband => " CONFIRM".to_string(),
            Order::Guard
            | Order::Patrol
            | Order::Pillage
            | Order::Retreat
            | Order::Stay
            | Order::Unstack
            | Order::Work
            | Order::Unreadable { .. } => String::new(),
        };
        f.write_str(&rest)
    }
}

#[cfg(test)]
mod tests {
    use super::Keyword;

    #[test]
    fn the_58_keywords_are_in_alphabetical_order_and_read_back() {
        assert_eq!(Keyword::ALL.len(), 58, "the order reference has 58 unit orders");
        for (i, k) in Keyword::ALL.iter().enumerate() {
            assert_eq!(*k as usize, i);
            assert_eq!(Keyword::parse(&k.text().to_ascii_lowercase()), Some(*k));
        }
        assert!(Keyword::ALL.windows(2).all(|w| w[0].text() < w[1].text()));
    }
}
