//! The catalogue: the rule set as the engine reads it, with the tables that turn
//! tags into interned ids ([`crate::systems::overlord::data::ids`]) once, when a game
//! is loaded or an order is parsed; the engine then never compares tag strings.

use crate::core::data::intern::Interner;
use crate::core::data::stances::StanceTable;
use crate::systems::overlord::data::RuleSet;
pub use crate::systems::overlord::data::ids::{EffectId, ItemId, RaceId, SkillId, TerrainId};
use bevy_ecs::prelude::Resource;
use std::sync::Arc;

/// The rule set as the engine reads it: the data, and the tables that turn tags
/// into ids. A resource of every game world. Cloning it is one reference count.
#[derive(Resource, Clone)]
pub struct Catalog(Arc<CatalogTables>);

/// What a [`Catalog`] holds; reached through it.
pub struct CatalogTables {
    /// The rule set.
    pub rules: Arc<RuleSet>,
    items: Interner,
    skills: Interner,
    races: Interner,
    terrains: Interner,
    effects: Interner,
    constructions: Interner,
    /// The movement modes' tags, in the rule set's order.
    mode_tags: Vec<&'static str>,
    /// Per item and per race: its name for one and for more (the plural, or the
    /// name where the rule set gives none), kept for the process.
    item_names: Vec<[&'static str; 2]>,
    race_names: Vec<[&'static str; 2]>,
    /// Per skill: the cumulative experience of each level, ascending.
    skill_levels: Vec<Vec<u32>>,
    /// Per month of the calendar: the index of its season.
    month_seasons: Vec<Option<usize>>,
    /// The stances, resolved (§7).
    pub stances: StanceTable,
    /// `use` and `study` bonuses by source and skill (CLI-MAGIC), made when first
    /// asked for: reading and checking orders never asks.
    bonuses: std::sync::OnceLock<super::bonus::SkillBonuses>,
    /// The money item ([`Catalog::money`]).
    money: Option<ItemId>,
}

impl std::ops::Deref for Catalog {
    type Target = CatalogTables;
    fn deref(&self) -> &CatalogTables {
        &self.0
    }
}

impl Catalog {
    /// Interns every tag of `rules`.
    pub fn new(rules: Arc<RuleSet>) -> Self {
        let items = Interner::new(rules.items.iter().map(|i| i.tag.as_str()));
        let skills = Interner::new(rules.skills.iter().map(|s| s.tag.as_str()));
        let races = Interner::new(rules.races.iter().map(|r| r.tag.as_str()));
        let terrains = Interner::new(rules.terrains.iter().map(|t| t.tag.as_str()));
        let effects = Interner::new(rules.enchantments.enchantments.iter().map(|t| t.tag.as_str()));
        let constructions = Interner::new(rules.constructions.constructions.iter().map(|c| c.tag.as_str()));
        use crate::core::data::intern::forever;
        let mode_tags = rules.movement.modes.iter().map(|m| forever(&m.tag)).collect();
        let names = |name: &str, plural: &str| [forever(name), forever(if plural.is_empty() { name } else { plural })];
        let item_names = rules.items.iter().map(|i| names(&i.name, &i.plural)).collect();
        let race_names = rules.races.iter().map(|r| names(&r.name, &r.plural)).collect();
        let skill_levels =
            rules.skills.iter().map(|s| s.system.levels.iter().map(|l| l.experience).collect()).collect();
        let month_seasons =
            rules.climate.months.iter().map(|m| rules.climate.seasons.iter().position(|s| s.tag == m.season)).collect();
        let stances = StanceTable::new(&rules.stances);
        let bonuses = std::sync::OnceLock::new();
        let money = rules
            .items
            .iter()
            .position(|i| i.weight == 0 && i.price == 0 && i.system.flags.is_empty())
            .map(|i| ItemId(i as u16));
        Catalog(Arc::new(CatalogTables {
            money,
            rules,
            items,
            skills,
            races,
            terrains,
            effects,
            constructions,
            mode_tags,
            item_names,
            race_names,
            skill_levels,
            month_seasons,
            stances,
            bonuses,
        }))
    }

    /// `use` and `study` bonuses by source and skill (CLI-MAGIC).
    pub fn bonuses(&self) -> &super::bonus::SkillBonuses {
        self.bonuses.get_or_init(|| super::bonus::SkillBonuses::new(&self.rules))
    }
    /// The id of item `tag`.
    pub fn item(&self, tag: &str) -> Option<ItemId> {
        self.items.get(tag).map(ItemId)
    }
    /// The id of skill `tag`.
    pub fn skill(&self, tag: &str) -> Option<SkillId> {
        self.skills.get(tag).map(SkillId)
    }
    /// The id of race `tag`.
    pub fn race(&self, tag: &str) -> Option<RaceId> {
        self.races.get(tag).map(RaceId)
    }
    /// The id of enchantment `tag`.
    pub fn effect(&self, tag: &str) -> Option<EffectId> {
        self.effects.get(tag).map(EffectId)
    }
    /// The tag of an enchantment.
    pub fn effect_tag(&self, id: EffectId) -> &'static str {
        self.effects.tag(id.0)
    }
    /// The index of construction `tag` in `constructions.ron`.
    pub fn construction(&self, tag: &str) -> Option<usize> {
        self.constructions.get(tag).map(usize::from)
    }
    /// The record of the rule set a faction may know whose tag is `word`, written in
    /// any case (RPT-KNOW, FAC-RESHOW): an item, a race, a construction or an
    /// enchantment, looked for in that order.
    pub fn topic(&self, word: &str) -> Option<super::components::Topic> {
        use super::components::Topic;
        (self.items.get_folded(word).map(|i| Topic::Item(ItemId(i))))
            .or_else(|| self.races.get_folded(word).map(|i| Topic::Race(RaceId(i))))
            .or_else(|| self.constructions.get_folded(word).map(|i| Topic::Construction(u32::from(i))))
            .or_else(|| self.effects.get_folded(word).map(|i| Topic::Enchantment(EffectId(i))))
    }
    /// The tag of a record a faction may know.
    pub fn topic_tag(&self, t: super::components::Topic) -> &str {
        use super::components::Topic;
        match t {
            Topic::Item(i) => self.items.tag(i.0),
            Topic::Race(r) => self.races.tag(r.0),
            Topic::Construction(c) => self.constructions.tag(c as u16),
            Topic::Enchantment(e) => self.effects.tag(e.0),
        }
    }
    /// Whether reports show enchantment `e` (ITM-ENCH: those marked `hidden` are
    /// never shown, nor learnt of).
    pub fn effect_shown(&self, e: EffectId) -> bool {
        !self.rules.enchantments.enchantments[e.index()].hidden
    }
    /// The id of terrain `tag`.
    pub fn terrain(&self, tag: &str) -> Option<TerrainId> {
        self.terrains.get(tag).map(TerrainId)
    }
    /// The money item: the one faction funds are kept in, the first item with
    /// neither weight nor price nor flags (coins count themselves).
    pub fn money(&self) -> Option<ItemId> {
        self.money
    }
    /// Whether item `i` is the money item ([`Catalog::money`]), without a search.
    pub fn is_money(&self, i: ItemId) -> bool {
        self.money == Some(i)
    }
    /// The item a unit's mana is counted in (`parameters.mana_item`), if the game has
    /// mana.
    pub fn mana(&self) -> Option<ItemId> {
        let tag = &self.rules.info.parameters.mana_item;
        if tag.is_empty() { None } else { self.item(tag) }
    }
    /// The season of month `month` (an index into the calendar).
    pub fn season(&self, month: u32) -> Option<&crate::systems::overlord::data::Season> {
        self.rules.climate.seasons.get(self.season_index(month)?)
    }
    /// The index of the season of month `month` (0-based) in the rule set.
    pub fn season_index(&self, month: u32) -> Option<usize> {
        *self.month_seasons.get(month as usize)?
    }
    /// `n` of an item as reports write it: "10 coins \[coin\]", "1 sword \[swrd\]".
    pub fn items_text(&self, item: ItemId, n: u64) -> String {
        let mut out = String::new();
        self.write_items_text(&mut out, item, n);
        out
    }
    /// Appends `n` of an item to `out` as [`Catalog::items_text`] writes it (a
    /// month's end writes one for every unit: without the formatting machinery).
    pub fn write_items_text(&self, out: &mut String, item: ItemId, n: u64) {
        let it = &self.rules.items[item.index()];
        let name = self.item_name_for(item, n);
        let mut digits = itoa::Buffer::new();
        let digits = digits.format(n);
        out.reserve(digits.len() + name.len() + it.tag.len() + 4);
        out.push_str(digits);
        out.push(' ');
        out.push_str(name);
        out.push_str(" [");
        out.push_str(&it.tag);
        out.push(']');
    }
    /// An item named as reports write it, without a number: "grain \[grai\]".
    pub fn item_name(&self, item: ItemId) -> String {
        self.item_label(item).to_string()
    }
    /// [`Catalog::item_name`], written only where it is formatted.
    pub fn item_label(&self, item: ItemId) -> impl std::fmt::Display + '_ {
        let it = &self.rules.items[item.index()];
        std::fmt::from_fn(move |f| write!(f, "{} [{}]", it.name, it.tag))
    }
    /// The tag of an item.
    pub fn item_tag(&self, id: ItemId) -> &'static str {
        self.items.tag(id.0)
    }
    /// The tag of a skill.
    pub fn skill_tag(&self, id: SkillId) -> &'static str {
        self.skills.tag(id.0)
    }
    /// The tag of a race.
    pub fn race_tag(&self, id: RaceId) -> &'static str {
        self.races.tag(id.0)
    }
    /// The tag of a terrain.
    pub fn terrain_tag(&self, id: TerrainId) -> &'static str {
        self.terrains.tag(id.0)
    }
    /// Item `id`'s name for `count` of it: its plural for any count but 1 (its
    /// name where the rule set gives no plural).
    pub fn item_name_for(&self, id: ItemId, count: u64) -> &'static str {
        self.item_names[id.index()][usize::from(count != 1)]
    }
    /// Race `id`'s name for `count` figures, as [`Catalog::item_name_for`].
    pub fn race_name_for(&self, id: RaceId, count: u64) -> &'static str {
        self.race_names[id.index()][usize::from(count != 1)]
    }
    /// The tag of movement mode `mode` (its index in the rule set's modes).
    pub fn mode_tag(&self, mode: usize) -> &'static str {
        self.mode_tags[mode]
    }
    /// The level reached with `experience` points in a skill: the number of its
    /// levels whose threshold is at most `experience`.
    pub fn skill_level(&self, id: SkillId, experience: u32) -> u32 {
        self.skill_levels[id.index()].partition_point(|&need| need <= experience) as u32
    }
    /// Whole days of study that `experience` points stand for.
    pub fn experience_days(&self, experience: u32) -> u32 {
        experience / self.rules.info.parameters.experience_per_day.max(1)
    }
}

impl crate::systems::overlord::orders::Vocabulary for Catalog {
    fn item(&self, word: &str) -> Option<ItemId> {
        self.items.get_folded(word).map(ItemId)
    }
    fn skill(&self, word: &str) -> Option<SkillId> {
        self.skills.get_folded(word).map(SkillId)
    }
    fn race(&self, word: &str) -> Option<RaceId> {
        self.races.get_folded(word).map(RaceId)
    }
    fn item_tag(&self, id: ItemId) -> &str {
        Catalog::item_tag(self, id)
    }
    fn skill_tag(&self, id: SkillId) -> &str {
        Catalog::skill_tag(self, id)
    }
    fn race_tag(&self, id: RaceId) -> &str {
        Catalog::race_tag(self, id)
    }
    fn max_orders(&self) -> usize {
        self.rules.info.parameters.max_orders_per_unit as usize
    }
    fn word(&self, list: crate::systems::overlord::orders::WordList, word: &str) -> Option<&str> {
        use crate::systems::overlord::orders::WordList as W;
        fn pick<'a>(mut tags: impl Iterator<Item = &'a str>, word: &str) -> Option<&'a str> {
            tags.find(|t| t.eq_ignore_ascii_case(word))
        }
        let r = &*self.rules;
        let c = &r.combat;
        // The combat chapter calls the middle rank CENTER and the center file MIDDLE
        // (ORD-TACTIC): both spellings are accepted.
        let alias = |word: &str, from: &str, to: &str| {
            if word.eq_ignore_ascii_case(from) { to.to_string() } else { word.to_string() }
        };
        match list {
            W::Direction => pick(r.movement.directions.iter().map(|d| d.tag.as_str()), word),
            // Players write the stance's name (FRIENDLY) or its tag (friend).
            W::Stance => self.stances.by_word(word).map(|s| self.stances.tag(s)),
            W::CombatStance => pick(c.stances.iter().map(|s| s.tag.as_str()), word),
            W::Rank => pick(c.ranks.iter().map(|s| s.tag.as_str()), word)
                .or_else(|| pick(c.ranks.iter().map(|s| s.tag.as_str()), &alias(word, "center", "middle"))),
            W::File => pick(c.files.iter().map(|s| s.tag.as_str()), word)
                .or_else(|| pick(c.files.iter().map(|s| s.tag.as_str()), &alias(word, "middle", "center"))),
            W::CombatMove => pick(c.moves.iter().map(|s| s.tag.as_str()), word),
            W::Construction => pick(r.constructions.constructions.iter().map(|c| c.tag.as_str()), word),
            W::Title => pick(r.titles.iter().map(|t| t.tag.as_str()), word),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Catalog, ItemId, RaceId};
    use crate::systems::overlord::testkit::overlord_rules;
    use std::sync::Arc;

    /// An item's or race's name for a count: its plural for any count but 1 (0
    /// included), its name for 1, and its name for any count where the rule set
    /// gives no plural. Tags and names are lent for the process.
    #[test]
    fn a_name_for_a_count_is_the_plural_but_for_one() {
        let mut rules = (*overlord_rules()).clone();
        let coin = rules.items.iter().position(|i| i.tag == "coin").unwrap();
        let ldr = rules.races.iter().position(|r| r.tag == "ldr").unwrap();
        rules.races[ldr].plural.clear();
        let c = Catalog::new(Arc::new(rules));
        let (coin, ldr) = (ItemId(coin as u16), RaceId(ldr as u16));
        let man = c.race("man").unwrap();
        assert_eq!([0, 1, 2].map(|n| c.item_name_for(coin, n)), ["coins", "coin", "coins"]);
        assert_eq!([0, 1, 2].map(|n| c.race_name_for(man, n)), ["followers", "follower", "followers"]);
        assert_eq!([0, 1, 2].map(|n| c.race_name_for(ldr, n)), ["leader"; 3], "no plural: the name");
        assert_eq!((c.item_tag(coin), c.race_tag(man)), ("coin", "man"));
        assert_eq!(c.items_text(coin, 3), "3 coins [coin]");
        assert!(std::ptr::eq(c.item_tag(coin), Catalog::new(overlord_rules()).item_tag(coin)));
    }
}
