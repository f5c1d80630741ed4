//! Reading one order line: prefixes, keyword, arguments.
//!
//! [`parse_entry`] turns `-+@Dnn ORDER args` into an [`Entry`], or says in words a
//! player understands what is wrong. It never panics, whatever the bytes (a property
//! test feeds it random input).

use super::syntax::*;
use crate::core::orders::text::{self, Res, keyword_of, number, prefixed, string_arg};
use crate::systems::overlord::data::Tag;
use crate::systems::overlord::data::ids::{ItemId, RaceId, SkillId};

/// A faction order: the lines between the header and the first `UNIT` (§5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FactionOrder {
    /// `NAME "faction name"`.
    Name(String),
    /// `PASSWORD new`.
    Password(String),
    /// `EMAIL address`.
    Email(String),
    /// `RESIGN faction`.
    Resign(Tag),
    /// `SETTING name ON|OFF`.
    Setting { setting: Setting, on: bool },
    /// `RESHOW keyword|tag [level]|ALL`.
    Reshow { what: Tag, level: Option<u32> },
}

pub use crate::systems::overlord::data::{is_new_id, is_new_id_of};

/// The unit id `word` names: `206`, `u206` and `U206` name `U206`; new ids as written.
pub fn unit_id(word: &str) -> Option<Tag> {
    if !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()) {
        return Some(format!("U{word}"));
    }
    prefixed(word, 'U').or_else(|| is_new_id(word, 'U').then(|| word.to_string()))
}

/// A unit id written as one (`U12` or a new id), in a place where bare numbers mean
/// something else (GIVE's second word).
fn given_unit(word: &str) -> Option<Tag> {
    prefixed(word, 'U').or_else(|| is_new_id(word, 'U').then(|| word.to_string()))
}

/// The location id `word` names (`L12`).
pub fn location_id(word: &str) -> Option<Tag> {
    prefixed(word, 'L')
}

/// The structure id `word` names (`B3`, or a new one such as `f06nB01`).
pub fn structure_id(word: &str) -> Option<Tag> {
    prefixed(word, 'B').or_else(|| is_new_id(word, 'B').then(|| word.to_string()))
}

/// The words of an order after its keyword, with the game's vocabulary: the core's
/// [`text::Args`] and the words of Overlord's orders.
struct Args<'a, 'v, V: Vocabulary + ?Sized> {
    words: text::Args<'a>,
    vocabulary: &'v V,
}

impl<'a, V: Vocabulary + ?Sized> std::ops::Deref for Args<'a, '_, V> {
    type Target = text::Args<'a>;
    fn deref(&self) -> &text::Args<'a> {
        &self.words
    }
}

impl<V: Vocabulary + ?Sized> std::ops::DerefMut for Args<'_, '_, V> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.words
    }
}

impl<V: Vocabulary + ?Sized> Args<'_, '_, V> {
    fn unit(&mut self) -> Res<Tag> {
        let w = self.next("a unit id")?;
        unit_id(w)
            .ok_or_else(|| format!("{} needs a unit id (like U12 or a new id like f06nU01), not '{w}'", self.keyword))
    }
    fn item(&mut self) -> Res<ItemId> {
        let w = self.next("an item")?;
        self.vocabulary.item(w).ok_or_else(|| format!("'{w}' is not an item of this game"))
    }
    fn skill(&mut self) -> Res<SkillId> {
        let w = self.next("a skill")?;
        self.vocabulary.skill(w).ok_or_else(|| format!("'{w}' is not a skill of this game"))
    }
    fn race(&mut self) -> Res<RaceId> {
        let w = self.next("a race")?;
        self.vocabulary.race(w).ok_or_else(|| format!("'{w}' is not a race of this game"))
    }
    fn listed(&mut self, list: WordList, what: &str) -> Res<Tag> {
        let w = self.next(what)?;
        self.vocabulary
            .word(list, w)
            .map(str::to_string)
            .ok_or_else(|| format!("{} needs {what}, and '{w}' is not one", self.keyword))
    }
    fn location(&mut self) -> Res<Tag> {
        let w = self.next("a location id")?;
        location_id(w).ok_or_else(|| format!("{} needs a location id (like L12), not '{w}'", self.keyword))
    }
    fn structure(&mut self) -> Res<Tag> {
        let w = self.next("a structure id")?;
        structure_id(w).ok_or_else(|| format!("{} needs a structure id (like B3), not '{w}'", self.keyword))
    }
    fn faction(&mut self) -> Res<Tag> {
        let w = self.next("a faction id")?;
        Ok(w.to_string())
    }
    fn destination(&mut self) -> Res<Destination> {
        let w = self.next("a direction or a location id")?;
        if let Some(d) = self.vocabulary.word(WordList::Direction, w) {
            return Ok(Destination::Direction(d.to_string()));
        }
        location_id(w)
            .map(Destination::Location)
            .ok_or_else(|| format!("{} needs a direction or a location id, and '{w}' is neither", self.keyword))
    }
}

/// ON or OFF; nothing means ON, as the reference engine's files write it
/// (`@ SETTING silent`).
fn on_off(keyword: &str, w: Option<&str>) -> Res<bool> {
    match w.map(str::to_ascii_uppercase).as_deref() {
        None | Some("ON") => Ok(true),
        Some("OFF") => Ok(false),
        Some(_) => Err(format!("{keyword} takes ON or OFF after the setting name")),
    }
}

fn setting(w: Option<&str>) -> Res<Setting> {
    let w = w.ok_or("SETTING needs a setting name and ON or OFF")?;
    Setting::ALL.into_iter().find(|s| s.keyword().eq_ignore_ascii_case(w)).ok_or_else(|| {
        let names: Vec<&str> = Setting::ALL.iter().map(|s| s.keyword()).collect();
        format!("'{w}' is not a setting; the settings are {}", names.join(", "))
    })
}

/// Splits the prefixes off an order line (PFX-FORM).
fn prefix(text: &str) -> Res<(Prefix, &str)> {
    let mut p = Prefix::default();
    let mut s = text.trim_start();
    while let Some(r) = s.strip_prefix('-') {
        p.dashes = p.dashes.checked_add(1).ok_or("too many dashes in front of the order")?;
        s = r.trim_start();
    }
    if let Some(r) = s.strip_prefix('+') {
        p.plus = true;
        s = r.trim_start();
    }
    if s.starts_with('-') || s.starts_with('+') {
        return Err("prefixes go in this order: dashes, then +, then @ or a duration, then Dnn".into());
    }
    if let Some(r) = s.strip_prefix('@') {
        p.repeat = Repeat::Always;
        s = r.trim_start();
        if s.starts_with(|c: char| c.is_ascii_digit()) {
            return Err("an order cannot have both @ and a duration".into());
        }
    } else if s.starts_with(|c: char| c.is_ascii_digit()) {
        let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
        let n: u32 = s[..end].parse().map_err(|_| format!("the duration {} is too large", &s[..end]))?;
        if n == 0 {
            return Err("a duration must be at least 1 day".into());
        }
        let r = &s[end..];
        if !r.starts_with(char::is_whitespace) {
            return Err(format!("put a space between the duration {n} and the order"));
        }
        p.repeat = Repeat::Days(n);
        s = r.trim_start();
        if s.starts_with('@') {
            return Err("an order cannot have both @ and a duration".into());
        }
    }
    let b = s.as_bytes();
    if b.len() >= 2 && (b[0] == b'D' || b[0] == b'd') && b[1].is_ascii_digit() {
        let end = s[1..].find(|c: char| !c.is_ascii_digit()).map_or(s.len(), |e| e + 1);
        let r = &s[end..];
        if r.is_empty() || r.starts_with(char::is_whitespace) {
            let n: u32 = s[1..end].parse().map_err(|_| format!("the day {} is too large", &s[1..end]))?;
            if n == 0 {
                return Err("days are numbered from 1: D0 never comes".into());
            }
            p.day = Some(n);
            s = r.trim_start();
        }
    }
    Ok((p, s))
}

/// Reads one unit order line (without comment). Errors say what is wrong.
pub fn parse_entry<V: Vocabulary + ?Sized>(text: &str, vocabulary: &V) -> Result<Entry, String> {
    let (prefix, body) = prefix(text)?;
    let order = parse_order(body, vocabulary)?;
    Ok(Entry { prefix, order })
}

/// Reads one unit order line; a line that cannot be read becomes an
/// [`Order::Unreadable`] entry (with its prefixes, when those could be read), and the
/// reason is returned beside it.
pub fn parse_entry_lenient<V: Vocabulary + ?Sized>(text: &str, vocabulary: &V) -> (Entry, Option<String>) {
    match prefix(text) {
        Ok((prefix, body)) => match parse_order(body, vocabulary) {
            Ok(order) => (Entry { prefix, order }, None),
            Err(reason) => (
                Entry { prefix, order: Order::Unreadable { text: body.trim().to_string(), reason: reason.clone() } },
                Some(reason),
            ),
        },
        Err(reason) => (
            Entry {
                prefix: Prefix::default(),
                order: Order::Unreadable { text: text.trim().to_string(), reason: reason.clone() },
            },
            Some(reason),
        ),
    }
}

fn parse_order<V: Vocabulary + ?Sized>(body: &str, vocabulary: &V) -> Res<Order> {
    let (kw, rest) = keyword_of(body);
    if kw.is_empty() {
        return Err("the prefixes are not followed by an order".into());
    }
    let Some(keyword) = Keyword::parse(&kw).or(match kw.as_str() {
        // The reference engine's files write COMBAT_ORDER for COMBAT.
        "COMBAT_ORDER" => Some(Keyword::Combat),
        _ => None,
    }) else {
        return Err(if matches!(kw.as_str(), "PASSWORD" | "EMAIL" | "RESIGN" | "RESHOW") {
            format!("{kw} is a faction order: put it before the first UNIT line")
        } else {
            format!("'{}' is not an order", body.split_whitespace().next().unwrap_or(""))
        });
    };
    let mut a = Args { words: text::Args::new(keyword.text(), rest), vocabulary };
    let order = match keyword {
        Keyword::Accept => Order::Accept(a.unit()?),
        Keyword::At => {
            let w = a.next("a location or structure id")?;
            match (location_id(w), structure_id(w)) {
                (Some(l), _) => Order::At(Place::Location(l)),
                (_, Some(s)) => Order::At(Place::Structure(s)),
                _ => return Err(format!("AT needs a location or structure id, not '{w}'")),
            }
        }
        Keyword::Attack => {
            let w = a.next("a unit, faction or structure id")?;
            Order::Attack(if let Some(u) = unit_id(w) {
                Target::Unit(u)
            } else if let Some(s) = structure_id(w) {
                Target::Structure(s)
            } else {
                Target::Faction(w.to_string())
            })
        }
        Keyword::Bestow => Order::Bestow(a.unit()?),
        Keyword::Build => {
            let skill = a.skill()?;
            let what = match a.peek() {
                Some(w) if number(w).is_none() => {
                    a.skip();
                    Some(if let Some(s) = structure_id(w) {
                        Target::Structure(s)
                    } else if let Some(c) = vocabulary.word(WordList::Construction, w) {
                        Target::Construction(c.to_string())
                    } else {
                        return Err(format!("BUILD needs a construction or a structure id, and '{w}' is neither"));
                    })
                }
                _ => None,
            };
            Order::Build { skill, what, count: a.opt_number()? }
        }
        Keyword::Buy | Keyword::Sell => {
            let count = a.number("a number of items")?;
            let item = a.item()?;
            let price = a.opt_number()?;
            if keyword == Keyword::Buy { Order::Buy { count, item, price } } else { Order::Sell { count, item, price } }
        }
        Keyword::Cancel => Order::Cancel { title: a.listed(WordList::Title, "a title")?, location: a.location()? },
        Keyword::Caravan => {
            let mut list = Vec::new();
            while a.more() {
                list.push(a.location()?);
            }
            if list.len() < 2 {
                return Err("CARAVAN needs at least two location ids".into());
            }
            Order::Caravan(list)
        }
        Keyword::Christen | Keyword::Name => {
            let s = string_arg(rest);
            if s.trim().is_empty() {
                return Err(format!("{} needs a name", keyword.text()));
            }
            if keyword == Keyword::Name { Order::Name(s) } else { Order::Christen(s) }
        }
        Keyword::Claim => {
            let title = a.listed(WordList::Title, "a title")?;
            let mut location = None;
            let mut free = false;
            while let Some(w) = a.peek() {
                a.skip();
                if w.eq_ignore_ascii_case("FREE") {
                    free = true;
                } else if let (Some(l), None) = (location_id(w), &location) {
                    location = Some(l);
                } else {
                    return Err(format!("CLAIM does not expect '{w}' here"));
                }
            }
            return Ok(Order::Claim { title, location, free });
        }
        Keyword::Combat => {
            let mut list = Vec::new();
            while let Some(w) = a.peek() {
                a.skip();
                list.push(match w.to_ascii_uppercase().as_str() {
                    "MELEE" => CombatAction::Melee,
                    "PARRY" => CombatAction::Parry,
                    "RANGED" => CombatAction::Ranged,
                    _ => match (vocabulary.skill(w), vocabulary.item(w)) {
                        (Some(s), _) => CombatAction::Skill(s),
                        (_, Some(i)) => CombatAction::Item(i),
                        _ => return Err(format!("'{w}' is not MELEE, PARRY, RANGED, a skill or an item")),
                    },
                });
            }
            if list.is_empty() {
                return Err("COMBAT needs at least one action: MELEE, PARRY, RANGED, a skill or an item".into());
            }
            Order::Combat(list)
        }
        Keyword::Day => {
            let n = a.number("a day of the month")?;
            if n == 0 {
                return Err("days are numbered from 1: DAY 0 never comes".into());
            }
            Order::Day(n)
        }
        Keyword::Describe => Order::Describe(string_arg(rest)),
        Keyword::Disband => match a.peek() {
            Some(w) if w.eq_ignore_ascii_case("CONFIRM") => {
                a.skip();
                Order::Disband
            }
            _ => return Err("DISBAND must be written DISBAND CONFIRM".into()),
        },
        Keyword::Drop => Order::Drop { item: a.item()?, count: a.opt_number()?, kept: a.opt_number()? },
        Keyword::Eject => Order::Eject(a.unit()?),
        Keyword::Enter => {
            let w = a.next("a structure id")?;
            if location_id(w).is_some() {
                return Err("ENTER is for structures; an inner location is entered with MOVE".into());
            }
            Order::Enter(structure_id(w).ok_or_else(|| format!("ENTER needs a structure id (like B3), not '{w}'"))?)
        }
        Keyword::Equip => Order::Equip { item: a.item()?, count: a.opt_number()? },
        Keyword::Exit | Keyword::Leave => {
            let s = if a.more() { Some(a.structure()?) } else { None };
            if keyword == Keyword::Exit { Order::Exit(s) } else { Order::Leave(s) }
        }
        Keyword::Forget => Order::Forget(a.skill()?),
        Keyword::Get => {
            let w = a.next("a unit or location id")?;
            let from = if let Some(l) = location_id(w) {
                Target::Location(l)
            } else if let Some(u) = unit_id(w) {
                Target::Unit(u)
            } else {
                return Err(format!("GET needs a unit or location id first, not '{w}'"));
            };
            Order::Get { from, count: a.opt_number()?, item: a.item()?, left: a.opt_number()? }
        }
        Keyword::Give => {
            let to = a.unit()?;
            // UNIT-XFER: `GIVE receiver U12` hands over a whole unit (the giver itself
            // or one stacked under it); an item tag comes first, so an item named
            // like a unit stays an item.
            match a.peek().filter(|w| a.vocabulary.item(w).is_none()).and_then(given_unit) {
                Some(unit) => {
                    a.skip();
                    Order::GiveUnit { to, unit }
                }
                None => Order::Give { to, item: a.item()?, count: a.opt_number()?, kept: a.opt_number()? },
            }
        }
        Keyword::Guard => Order::Guard,
        Keyword::Have => Order::Have { item: a.item()?, count: a.opt_number()?.unwrap_or(1) },
        Keyword::Leader => Order::Leader(a.unit()?),
        Keyword::Leading => Order::Leading(a.unit()?),
        Keyword::March => Order::March(a.destination()?),
        Keyword::Merge => Order::Merge { into: a.unit()?, count: a.number("a number of figures")? },
        Keyword::Move => Order::Move(a.destination()?),
        Keyword::Oath => Order::Oath(a.unit()?),
        Keyword::Patrol => Order::Patrol,
        Keyword::Pillage => Order::Pillage,
        Keyword::Promote => Order::Promote(a.unit()?),
        Keyword::Recruit => Order::Recruit {
            unit: a.unit()?,
            count: a.number("a number of figures")?,
            race: a.race()?,
            price: a.number("a price per figure (0 for the local price)")?,
        },
        Keyword::Retreat => Order::Retreat,
        Keyword::See => Order::See(a.unit()?),
        Keyword::Setting => {
            let setting = setting(a.peek())?;
            a.skip();
            let on = on_off("SETTING", a.peek())?;
            a.skip();
            Order::Setting { setting, on }
        }
        Keyword::Size => Order::Size(a.number("a number of figures")?),
        Keyword::Skill => {
            let skill = a.skill()?;
            let amount = a.number("a level or a number of days")?;
            let days = match a.peek().map(str::to_ascii_uppercase).as_deref() {
                None => false,
                Some("LEVEL") => {
                    a.skip();
                    false
                }
                Some("DAYS") => {
                    a.skip();
                    true
                }
                Some(_) => return Err("SKILL ends with LEVEL or DAYS".into()),
            };
            Order::Skill { skill, amount, days }
        }
        Keyword::Split => {
            let w = a.next("a new unit id")?;
            if !is_new_id(w, 'U') {
                return Err(format!("SPLIT needs a new unit id like f06nU01, not '{w}'"));
            }
            Order::Split { new: w.to_string(), count: a.number("a number of figures")? }
        }
        Keyword::Stack => Order::Stack(if a.more() { Some(a.unit()?) } else { None }),
        Keyword::Stance => {
            Order::Stance { faction: a.faction()?, stance: a.listed(WordList::Stance, "a stance such as ALLY")? }
        }
        Keyword::Stay => Order::Stay,
        Keyword::Study => Order::Study { skill: a.skill()?, level: a.opt_number()? },
        Keyword::Swap => {
            let with = a.unit()?;
            let n1 = a.number("the number of items to give")?;
            let i1 = a.item()?;
            let n2 = a.number("the number of items to take")?;
            let i2 = a.item()?;
            Order::Swap { with, give: (n1, i1), take: (n2, i2) }
        }
        Keyword::Synchro => Order::Synchro(a.unit()?),
        Keyword::Tactic => Order::Tactic(Tactic {
            stance: a.listed(WordList::CombatStance, "a battle stance (AVOID, DEFEND or FIGHT)")?,
            rank: a.listed(WordList::Rank, "a rank (FRONT, MIDDLE or REAR)")?,
            file: a.listed(WordList::File, "a file (LEFT, CENTER or RIGHT)")?,
            movement: a.listed(WordList::CombatMove, "a battle move such as STAND or CHARGE")?,
        }),
        Keyword::Target => {
            let w = a.next("a unit, location, structure or construction")?;
            Order::Target(if let Some(u) = unit_id(w) {
                Target::Unit(u)
            } else if let Some(l) = location_id(w) {
                Target::Location(l)
            } else if let Some(s) = structure_id(w) {
                Target::Structure(s)
            } else if let Some(c) = vocabulary.word(WordList::Construction, w) {
                Target::Construction(c.to_string())
            } else {
                return Err(format!("TARGET needs a unit, location, structure or construction, not '{w}'"));
            })
        }
        Keyword::Teach => {
            let mut list = Vec::new();
            while let Some(w) = a.peek() {
                let student = unit_id(w).filter(|_| vocabulary.skill(w).is_none());
                if student.is_some() {
                    a.skip();
                }
                list.push((student, a.skill()?));
            }
            if list.is_empty() {
                return Err("TEACH needs a unit id and a skill".into());
            }
            Order::Teach(list)
        }
        Keyword::Unstack => Order::Unstack,
        Keyword::Use => Order::Use { skill: a.skill()?, count: a.opt_number()? },
        Keyword::Wait => Order::Wait(a.number("a number of days")?),
        Keyword::Withdraw => {
            let amount = a.number("an amount")?;
            let item = if a.more() { Some(a.item()?) } else { None };
            Order::Withdraw { amount, item }
        }
        Keyword::Work => Order::Work,
        Keyword::Yield => Order::Yield(if a.more() { Some(a.listed(WordList::Title, "a title")?) } else { None }),
    };
    // String arguments take the rest of the line.
    if !matches!(keyword, Keyword::Name | Keyword::Christen | Keyword::Describe) {
        a.end()?;
    }
    Ok(order)
}

/// Reads one faction order (the lines before the first `UNIT`).
pub fn parse_faction_order(text: &str) -> Result<FactionOrder, String> {
    let (kw, rest) = keyword_of(text);
    let words: Vec<&str> = rest.split_whitespace().collect();
    let one = |what: &str| -> Res<String> {
        match words.as_slice() {
            [w] => Ok(w.to_string()),
            [] => Err(format!("{kw} needs {what}")),
            _ => Err(format!("{kw} takes one word: {what}")),
        }
    };
    match kw.as_str() {
        "NAME" => {
            let s = string_arg(rest);
            if s.trim().is_empty() { Err("NAME needs a name".into()) } else { Ok(FactionOrder::Name(s)) }
        }
        "PASSWORD" => Ok(FactionOrder::Password(one("the new password")?)),
        "EMAIL" => {
            let e = one("an address")?;
            if !e.contains('@') {
                return Err(format!("'{e}' is not an email address"));
            }
            Ok(FactionOrder::Email(e))
        }
        "RESIGN" => Ok(FactionOrder::Resign(one("the id of the faction that takes your units")?)),
        "SETTING" => {
            let setting = setting(words.first().copied())?;
            let on = on_off("SETTING", words.get(1).copied())?;
            if words.len() > 2 {
                return Err("SETTING takes a setting name and ON or OFF".into());
            }
            Ok(FactionOrder::Setting { setting, on })
        }
        "RESHOW" => match words.as_slice() {
            [w] => Ok(FactionOrder::Reshow { what: w.to_string(), level: None }),
            [w, n] => Ok(FactionOrder::Reshow {
                what: w.to_string(),
                level: Some(number(n).ok_or_else(|| format!("RESHOW: '{n}' is not a level"))?),
            }),
            _ => Err("RESHOW takes a rule keyword or tag, or a skill and a level, or ALL".into()),
        },
        _ if Keyword::parse(&kw).is_some() => {
            Err(format!("{kw} is a unit order: put it after a UNIT line naming the unit"))
        }
        _ => Err(format!("'{}' is not a faction order", text.split_whitespace().next().unwrap_or(""))),
    }
}

impl FactionOrder {
    /// The canonical text of the order.
    pub fn text(&self) -> String {
        match self {
            FactionOrder::Name(s) => format!("NAME \"{s}\""),
            FactionOrder::Password(p) => format!("PASSWORD {p}"),
            FactionOrder::Email(e) => format!("EMAIL {e}"),
            FactionOrder::Resign(f) => format!("RESIGN {f}"),
            FactionOrder::Setting { setting, on } => {
                format!("SETTING {} {}", setting.keyword(), if *on { "ON" } else { "OFF" })
            }
            FactionOrder::Reshow { what, level } => match level {
                Some(l) => format!("RESHOW {what} {l}"),
                None => format!("RESHOW {what}"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::overlord::orders::fixture::Words;
    use rand::{RngExt, SeedableRng};

    fn round_trip(text: &str) -> String {
        let e = parse_entry(text, &Words).unwrap_or_else(|m| panic!("{text}: {m}"));
        let written = e.written(&Words).to_string();
        assert_eq!(parse_entry(&written, &Words).as_ref(), Ok(&e), "{text} → {written}");
        written
    }

    #[test]
    fn prefixes_come_in_the_rules_order_pfx_form() {
        assert_eq!(round_trip("-5 STUDY s"), "-5 STUDY s");
        assert_eq!(round_trip("+@use s"), "+@USE s");
        assert_eq!(round_trip("--MOVE n"), "--MOVE N");
        assert_eq!(round_trip("D10 DAY 15"), "D10 DAY 15");
        assert_eq!(round_trip("-15 GUARD"), "-15 GUARD");
        assert_eq!(round_trip("+30 STUDY CMBT"), "+30 STUDY cmbt");
        assert_eq!(round_trip("@ GUARD"), "@GUARD");
        assert_eq!(round_trip("-+@D3 GIVE 12 coin 0 5"), "-+@D3 GIVE U12 coin 0 5");
        for bad in ["@5 USE s", "5@USE s", "+-MOVE N", "0 STUDY s", "5USE s", "D0 DAY 1"] {
            assert!(parse_entry(bad, &Words).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_setting_without_on_or_off_turns_it_on() {
        // The reference engine's files write `@ SETTING silent` (ORD-SETTING).
        assert_eq!(round_trip("@ SETTING silent"), "@SETTING SILENT ON");
        assert_eq!(
            parse_faction_order("SETTING terse"),
            Ok(FactionOrder::Setting { setting: Setting::Terse, on: true })
        );
        assert_eq!(
            parse_entry("SETTING silent maybe", &Words).unwrap_err(),
            "SETTING takes ON or OFF after the setting name"
        );
    }

    #[test]
    fn every_order_of_the_reference_reads_and_writes_back() {
        // The examples of the order reference (checklist §6), one per order.
        for text in [
            "ACCEPT f02nU98",
            "AT L47",
            "AT B3",
            "ATTACK U222",
            "ATTACK f02",
            "ATTACK B4",
            "BESTOW U509",
            "BUILD carp f06nB01",
            "BUILD carp tower 3",
            "BUY 10 swrd 200",
            "@BUY 0 iron 25",
            "CANCEL mayo L47",
            "CARAVAN L47 L49 L51",
            "CHRISTEN “Nirmal's Roost”",
            "CLAIM mayo L67",
            "CLAIM mayo FREE",
            "COMBAT RANGED",
            "COMBAT erst swrd MELEE",
            "DAY 15",
            "DESCRIBE",
            "DESCRIBE \"wearing a dark hood\"",
            "DISBAND CONFIRM",
            "DROP ston 15",
            "DROP iron 0 10",
            "EJECT U250",
            "ENTER B220",
            "EQUIP swrd 20",
            "EQUIP hrse 0",
            "EXIT",
            "EXIT B220",
            "FORGET carp",
            "GET U229 100 iron",
            "GET L47 0 coin 50",
            "GIVE U229 ston 100",
            "GIVE U882 swrd 0 5",
            "@GUARD",
            "HAVE food 5",
            "LEADER U222",
            "LEADING U222",
            "LEAVE",
            "LEAVE B199",
            "MARCH N",
            "MARCH L47",
            "MERGE U222 5",
            "MOVE SW",
            "@MOVE NE",
            "NAME “Biscuithead”",
            "OATH U222",
            "PATROL",
            "15 PILLAGE",
            "PROMOTE U222",
            "RECRUIT f06nU01 10 man 51",
            "RECRUIT U2095 0 man 50",
            "RETREAT",
            "SEE U290",
            "SELL 0 food 8",
            "@SELL 987 ston 20",
            "SETTING ADVERTISE ON",
            "SETTING support off",
            "SIZE 50",
            "SKILL cmbt 2 LEVEL",
            "SKILL blde 95 DAYS",
            "SKILL cmbt 2",
            "SPLIT f06nU01 10",
            "STACK U222",
            "STACK",
            "STANCE f05 ALLY",
            "STANCE f11 hostile",
            "STAY",
            "@STUDY cmbt",
            "STUDY cmbt 2",
            "SYNCHRO U222",
            "SWAP U231 1000 coin 15 fish",
            "TACTIC FIGHT FRONT CENTER CHARGE",
            "TACTIC attack middle center fire",
            "TARGET U222",
            "TARGET B126",
            "TARGET L46",
            "TARGET barr",
            "10 TEACH U222 cmbt",
            "30 TEACH U101 mage U102 mage U110 scou",
            "@TEACH cmbt",
            "UNSTACK",
            "@USE hors 10",
            "USE erst 1",
            "WAIT 10",
            "WITHDRAW 3450",
            "WITHDRAW 10 food",
            "10 WORK",
            "YIELD mayo",
            "YIELD",
            "COMBAT_ORDER ranged",
        ] {
            round_trip(text);
            // The table of per-order data is indexed by the order's keyword
            // (Order::index); each example must land on the keyword it is written with.
            let e = parse_entry(text, &Words).unwrap();
            let word = text
                .split_whitespace()
                .map(|t| t.trim_start_matches(['-', '+', '@']).trim_start_matches(|c: char| c.is_ascii_digit()))
                .filter(|t| !t.is_empty())
                .find(|t| t.strip_prefix('D').is_none_or(|n| !n.chars().all(|c| c.is_ascii_digit())))
                .and_then(|t| t.split('_').next())
                .unwrap();
            assert_eq!(e.order.keyword(), word.to_ascii_uppercase(), "{text}");
            let kind = e.order.kind().unwrap();
            assert_eq!(e.order.info(), kind.info(), "{text}");
        }
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let err = |t: &str| parse_entry(t, &Words).unwrap_err();
        assert_eq!(err("GIVE U1 gold 5"), "'gold' is not an item of this game");
        assert_eq!(err("STUDY"), "STUDY needs a skill");
        assert_eq!(err("FLY N"), "'FLY' is not an order");
        assert_eq!(err("PASSWORD x"), "PASSWORD is a faction order: put it before the first UNIT line");
        assert_eq!(err("SPLIT U5 10"), "SPLIT needs a new unit id like f06nU01, not 'U5'");
        assert_eq!(err("MOVE north"), "MOVE needs a direction or a location id, and 'north' is neither");
        assert_eq!(err("DISBAND"), "DISBAND must be written DISBAND CONFIRM");
        assert_eq!(err("SIZE x"), "SIZE needs a number of figures, a whole number, not 'x'");
        assert_eq!(err("GUARD now"), "GUARD does not expect 'now' here");
        assert_eq!(
            parse_faction_order("STUDY cmbt").unwrap_err(),
            "STUDY is a unit order: put it after a UNIT line naming the unit"
        );
        assert_eq!(parse_faction_order("EMAIL nobody").unwrap_err(), "'nobody' is not an email address");
    }

    #[test]
    fn comments_and_strings_file_comment_file_string() {
        for t in ["NAME The Empire", "NAME \"The Empire\"", "NAME “The Empire”"] {
            assert_eq!(parse_entry(t, &Words).unwrap().order, Order::Name("The Empire".into()), "{t}");
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic_and_what_reads_writes_back() {
        // A property test: random lines built from bytes and order fragments.
        let fragments = [
            "-",
            "+",
            "@",
            "D",
            "1",
            "0",
            "99999999999",
            " ",
            "\t",
            "\"",
            "“",
            "#",
            "GIVE",
            "U1",
            "coin",
            "STUDY",
            "s",
            "MOVE",
            "N",
            "L3",
            "B2",
            "f01nU01",
            "SWAP",
            "TACTIC",
            "fight",
            "front",
            "left",
            "stand",
            "COMBAT",
            "RECRUIT",
            "man",
            "TEACH",
            "SKILL",
            "DAYS",
            "NAME",
            "GET",
            "é",
            "\u{0}",
            "UNIT",
            "END",
            "GAME f1 p",
        ];
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(4);
        for _ in 0..20_000 {
            let mut s = String::new();
            for _ in 0..rng.random_range(0..8) {
                if rng.random_bool(0.2) {
                    let bytes: Vec<u8> = (0..rng.random_range(1..6)).map(|_| rng.random()).collect();
                    s.push_str(&String::from_utf8_lossy(&bytes));
                } else {
                    s.push_str(fragments[rng.random_range(0..fragments.len())]);
                }
                if rng.random_bool(0.6) {
                    s.push(' ');
                }
            }
            let (entry, _) = parse_entry_lenient(&s, &Words);
            if let Ok(e) = parse_entry(&s, &Words) {
                let w = e.written(&Words).to_string();
                assert_eq!(parse_entry(&w, &Words), Ok(e), "{s:?} → {w:?}");
            }
            let _ = entry.written(&Words).to_string();
            let _ = parse_faction_order(&s);
            let _ = crate::systems::overlord::orders::parse_mail(
                &format!("GAME f1 p\nUNIT U1\n{s}\n{s}\nPRESS f1 p\n{s}\nEND"),
                &Words,
            );
        }
    }
}
