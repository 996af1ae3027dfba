//! [`ContextMap`]: the manager's `MDL_context`s, a `Vec` indexed by context id.
//!
//! Context ids are session ids, handed out from 1 in increasing order, so a slot per
//! id up to the largest is a few dozen entries; every acquire and release finds its
//! context by indexing instead of a `BTreeMap` search (three or four of them a
//! statement). Iteration is in id order, as a `BTreeMap`'s would be.

use super::types::MdlContextId;

/// A map from context ids to values, one slot per id up to the largest used.
#[derive(Clone, Debug)]
pub(super) struct ContextMap<V> {
    slots: Vec<Option<V>>,
}

impl<V> Default for ContextMap<V> {
    fn default() -> ContextMap<V> {
        ContextMap { slots: Vec::new() }
    }
}

impl<V> ContextMap<V> {
    /// The value of `ctx`.
    #[inline]
    pub(super) fn get(&self, ctx: &MdlContextId) -> Option<&V> {
        self.slots.get(ctx.0 as usize)?.as_ref()
    }

    /// The value of `ctx`, to change.
    #[inline]
    pub(super) fn get_mut(&mut self, ctx: &MdlContextId) -> Option<&mut V> {
        self.slots.get_mut(ctx.0 as usize)?.as_mut()
    }

    /// Takes the value of `ctx` out.
    pub(super) fn remove(&mut self, ctx: &MdlContextId) -> Option<V> {
        self.slots.get_mut(ctx.0 as usize)?.take()
    }

    /// Every value, in id order.
    #[cfg(test)]
    pub(super) fn values(&self) -> impl Iterator<Item = &V> {
        self.slots.iter().flatten()
    }
}

impl<V: Default> ContextMap<V> {
    /// The value of `ctx`, made (as `V::default()`) if it has none.
    #[inline]
    pub(super) fn or_default(&mut self, ctx: MdlContextId) -> &mut V {
        let i = ctx.0 as usize;
        if i >= self.slots.len() {
            self.slots.resize_with(i + 1, || None);
        }
        self.slots[i].get_or_insert_with(V::default)
    }
}

impl<V> std::ops::Index<&MdlContextId> for ContextMap<V> {
    type Output = V;

    fn index(&self, ctx: &MdlContextId) -> &V {
        self.get(ctx)
            .unwrap_or_else(|| panic!("no context {ctx:?}"))
    }
}

#[cfg(test)]
mod tests {
    use super::ContextMap;
    use crate::mdl::MdlContextId;

    #[test]
    fn keeps_contexts_by_id_in_id_order() {
        let mut m: ContextMap<u32> = ContextMap::default();
        *m.or_default(MdlContextId(5)) = 50;
        *m.or_default(MdlContextId(2)) += 20;
        assert_eq!(m.get(&MdlContextId(3)), None);
        assert_eq!(m.get(&MdlContextId(9)), None);
        assert_eq!(m[&MdlContextId(2)], 20);
        *m.get_mut(&MdlContextId(5)).unwrap() += 1;
        assert_eq!(m.values().copied().collect::<Vec<_>>(), vec![20, 51]);
        assert_eq!(m.remove(&MdlContextId(2)), Some(20));
        assert_eq!(m.remove(&MdlContextId(2)), None);
        assert_eq!(m.values().count(), 1);
    }
}
