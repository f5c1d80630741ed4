//! A small vocabulary for the order language's own tests, independent of any rule set.

use super::syntax::{Vocabulary, WordList};
use crate::systems::overlord::data::ids::{ItemId, RaceId, SkillId};

/// Items, skills, races and word lists enough for the rules' examples.
pub struct Words;

const ITEMS: [&str; 8] = ["coin", "item", "food", "iron", "ston", "swrd", "hrse", "fish"];
const SKILLS: [&str; 10] = ["s", "cmbt", "lumb", "digg", "hors", "mage", "scou", "erst", "blde", "carp"];
const RACES: [&str; 3] = ["man", "ldr", "wolf"];

fn find(list: &[&str], w: &str) -> Option<u16> {
    list.iter().position(|t| t.eq_ignore_ascii_case(w)).map(|i| i as u16)
}

impl Vocabulary for Words {
    fn item(&self, w: &str) -> Option<ItemId> {
        find(&ITEMS, w).map(ItemId)
    }
    fn skill(&self, w: &str) -> Option<SkillId> {
        find(&SKILLS, w).map(SkillId)
    }
    fn race(&self, w: &str) -> Option<RaceId> {
        find(&RACES, w).map(RaceId)
    }
    fn item_tag(&self, id: ItemId) -> &str {
        ITEMS[id.index()]
    }
    fn skill_tag(&self, id: SkillId) -> &str {
        SKILLS[id.index()]
    }
    fn race_tag(&self, id: RaceId) -> &str {
        RACES[id.index()]
    }
    fn word(&self, list: WordList, w: &str) -> Option<&str> {
        let words: &[&'static str] = match list {
            WordList::Direction => &["N", "NE", "SE", "S", "SW", "NW", "IN", "OUT"],
            WordList::Stance => &["ally", "friendly", "neutral", "hostile", "enemy"],
            WordList::CombatStance => &["fight", "attack", "defend", "avoid"],
            WordList::Rank => &["front", "middle", "rear"],
            WordList::File => &["left", "center", "right"],
            WordList::CombatMove => {
                &["flee", "retreat", "stand", "advance", "sweep", "flank", "charge", "fire", "support"]
            }
            WordList::Construction => &["tower", "barr"],
            WordList::Title => &["mayo", "shrf"],
        };
        words.iter().copied().find(|t| t.eq_ignore_ascii_case(w))
    }
    fn max_orders(&self) -> usize {
        50
    }
}
