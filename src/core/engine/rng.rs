//! Randomness: every draw comes from the game's seed, split into independent streams
//! per purpose and per entity.
//!
//! A stream is keyed by `(seed, turn, purpose, key)`; `key` is usually [`key_of`] the
//! entity's scenario id, which does not depend on load order, thread count or which
//! other entities exist. Two systems never share a stream, so adding a draw to one
//! mechanic does not change what another draws.

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

/// A stable 64-bit key for a tag (FNV-1a): the same tag gives the same key on every
/// machine and in every version.
pub fn key_of(tag: &str) -> u64 {
    key_of_parts(&[tag])
}

/// [`key_of`] the tag that `parts` make one after the other (`["f1", "/", "U7"]`
/// keys as `"f1/U7"`), without putting the tag together.
pub fn key_of_parts(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in parts.iter().flat_map(|p| p.bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The random stream for `purpose` (a short fixed name such as `"weather"`) and `key`
/// in `turn` of the game seeded with `seed`.
pub fn stream(seed: u64, turn: u32, purpose: &str, key: u64) -> ChaCha8Rng {
    ChaCha8Rng::from_seed(stream_seed(seed, turn, purpose, key))
}

/// The seed of [`stream`]`(seed, turn, purpose, key)`: a stream to start later, or
/// on another thread.
pub fn stream_seed(seed: u64, turn: u32, purpose: &str, key: u64) -> [u8; 32] {
    let mut state = seed ^ splitmix(&mut (u64::from(turn) << 32 ^ key_of(purpose)));
    state ^= splitmix(&mut key.clone());
    let mut bytes = [0u8; 32];
    for chunk in bytes.chunks_mut(8) {
        chunk.copy_from_slice(&splitmix(&mut state).to_le_bytes());
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    fn draws(seed: u64, turn: u32, purpose: &str, key: u64) -> Vec<u32> {
        let mut r = stream(seed, turn, purpose, key);
        (0..8).map(|_| r.random_range(0..1_000_000)).collect()
    }

    #[test]
    fn a_key_of_parts_is_the_key_of_the_parts_joined() {
        assert_eq!(key_of_parts(&["fa", "/", "U12"]), key_of("fa/U12"));
        assert_eq!(key_of_parts(&[]), key_of(""));
        assert_eq!(key_of_parts(&["", "L1", ""]), key_of("L1"));
        assert_ne!(key_of_parts(&["fa", "/", "U12"]), key_of("fa/U21"));
    }

    #[test]
    fn streams_repeat_and_differ_by_every_part_of_their_key() {
        let base = draws(1, 1, "weather", key_of("L1"));
        assert_eq!(base, draws(1, 1, "weather", key_of("L1")));
        assert_ne!(base, draws(2, 1, "weather", key_of("L1")));
        assert_ne!(base, draws(1, 2, "weather", key_of("L1")));
        assert_ne!(base, draws(1, 1, "battle", key_of("L1")));
        assert_ne!(base, draws(1, 1, "weather", key_of("L2")));
    }

    #[test]
    fn tag_keys_are_fixed() {
        // FNV-1a of the empty string and of "a": published constants.
        assert_eq!(key_of(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(key_of("a"), 0xaf63_dc4c_8601_ec8c);
    }
}
