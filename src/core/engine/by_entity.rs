//! A table of values by entity index, for what a mechanic asks of many entities
//! every day (a bit per unit, a day's work): a look-up is an index, not a hash.
//!
//! Each slot holds the entity it was set for, so a slot left by an entity that
//! is gone (its index now taken by another) reads as empty for the newcomer.
//! The table grows to the largest index set; [`ByEntity::clear`] empties it and
//! keeps its memory for the next time.

use bevy_ecs::entity::Entity;

/// Values of type `T` by entity; an entity without one reads as `None`.
#[derive(Debug, Clone)]
pub struct ByEntity<T> {
    slots: Vec<(Entity, T)>,
}

impl<T> Default for ByEntity<T> {
    fn default() -> Self {
        ByEntity { slots: Vec::new() }
    }
}

impl<T: Default> ByEntity<T> {
    /// The value of entity `e`, if one was set for it.
    #[inline]
    pub fn get(&self, e: Entity) -> Option<&T> {
        self.slots.get(e.index_u32() as usize).filter(|s| s.0 == e).map(|s| &s.1)
    }

    /// The value of entity `e`, to change: `T::default()` first if none was set
    /// for it (or its slot was another entity's).
    #[inline]
    pub fn entry(&mut self, e: Entity) -> &mut T {
        let i = e.index_u32() as usize;
        if i >= self.slots.len() {
            self.slots.resize_with(i + 1, || (Entity::PLACEHOLDER, T::default()));
        }
        let slot = &mut self.slots[i];
        if slot.0 != e {
            *slot = (e, T::default());
        }
        &mut slot.1
    }

    /// Sets the value of entity `e`.
    #[inline]
    pub fn set(&mut self, e: Entity, value: T) {
        *self.entry(e) = value;
    }

    /// Forgets the value of entity `e`, if it has one; its slot stays.
    #[inline]
    pub fn remove(&mut self, e: Entity) {
        if let Some(slot) = self.slots.get_mut(e.index_u32() as usize).filter(|s| s.0 == e) {
            *slot = (Entity::PLACEHOLDER, T::default());
        }
    }

    /// The entities with a value, by index, with their values.
    pub fn iter(&self) -> impl Iterator<Item = (Entity, &T)> {
        self.slots.iter().filter(|s| s.0 != Entity::PLACEHOLDER).map(|(e, v)| (*e, v))
    }

    /// Forgets every value.
    pub fn clear(&mut self) {
        self.slots.clear();
    }

    /// The number of slots: one past the largest index set since the table was
    /// last cleared.
    pub fn slots(&self) -> usize {
        self.slots.len()
    }
}

#[cfg(test)]
mod tests {
    use super::ByEntity;
    use bevy_ecs::entity::Entity;

    /// A value is read back only by the entity it was set for: not by another
    /// entity, not by a newcomer taking a gone entity's index, and not after it
    /// was removed or the table cleared.
    #[test]
    fn a_value_belongs_to_the_entity_it_was_set_for() {
        let (a, b) = (Entity::from_raw_u32(0).unwrap(), Entity::from_raw_u32(2).unwrap());
        let mut t: ByEntity<u32> = ByEntity::default();
        assert_eq!(t.get(a), None);
        t.set(b, 7);
        assert_eq!((t.get(a), t.get(b)), (None, Some(&7)));
        *t.entry(a) += 2;
        *t.entry(a) += 3;
        assert_eq!(t.get(a), Some(&5));
        assert_eq!(t.slots(), b.index_u32() as usize + 1);
        // `b` goes; a new entity takes its index and finds nothing there.
        let c = Entity::from_index_and_generation(b.index(), b.generation().after_versions(1));
        assert_ne!(c, b);
        assert_eq!(t.get(c), None);
        assert_eq!(*t.entry(c), 0, "a newcomer starts from the default");
        assert_eq!(t.iter().collect::<Vec<_>>(), [(a, &5), (c, &0)]);
        t.remove(a);
        t.remove(b);
        assert_eq!(t.get(a), None);
        assert_eq!(t.iter().collect::<Vec<_>>(), [(c, &0)], "removing a gone entity's value changes nothing");
        t.set(a, 1);
        t.clear();
        assert_eq!((t.get(a), t.slots()), (None, 0));
    }
}
