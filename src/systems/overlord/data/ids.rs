//! Interned ids: the engine refers to items, skills, races, terrains and
//! enchantments by small integers, never by comparing tag strings. An id is the
//! index of its record in the rule set's list, so `rules.items[id.index()]` is the
//! item.

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u16);
        impl $name {
            /// The index of the record in its rule-set list.
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(
    /// An item of the rule set (`items.ron`).
    ItemId
);
id_type!(
    /// A skill of the rule set (`skills.ron`).
    SkillId
);
id_type!(
    /// A race of the rule set (`races.ron`).
    RaceId
);
id_type!(
    /// A terrain of the rule set (`terrains.ron`).
    TerrainId
);
id_type!(
    /// An enchantment (an effect) of the rule set (`enchantments.ron`).
    EffectId
);
