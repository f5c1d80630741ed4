//! Faction passwords, kept as salted hashes.
//!
//! A scenario may write passwords in clear (its author sets them); a game folder
//! never keeps them so: every state a game writes holds each password as an
//! Argon2id hash in the PHC string format (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`),
//! and mail is checked against it. A password still in clear (a scenario's, or a
//! state from before hashing) is still accepted, and hashed the next time the
//! state is written.
//!
//! The salt is drawn from the game's name, the faction's id and the turn, so
//! that the same game gives the same bytes in any folder (a salt must be unique,
//! not secret), and differs from game to game, faction to faction and turn to
//! turn.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

/// What a template writes where the password goes: the player writes theirs in
/// its place.
pub const PLACEHOLDER: &str = "<password>";

/// The cost of a hash: 1 MiB of memory and 2 passes, under a millisecond on the
/// reference machine, so that taking in a mail and writing a new game of 50,000
/// factions stay cheap, while each guess at a password from a stolen state costs
/// that much memory and time.
const MEMORY_KIB: u32 = 1024;
const PASSES: u32 = 2;

fn hasher() -> Argon2<'static> {
    let params = Params::new(MEMORY_KIB, PASSES, 1, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Whether `stored` is a hash (not a password in clear).
pub fn is_hashed(stored: &str) -> bool {
    stored.starts_with("$argon2")
}

/// The hash of `password` for faction `faction` of game `game` at `turn`.
pub fn hash(password: &str, game: &str, faction: &str, turn: u32) -> String {
    let key = crate::core::engine::rng::key_of(faction);
    let bytes = crate::core::engine::rng::stream_seed(crate::core::engine::rng::key_of(game), turn, "password", key);
    let salt = SaltString::encode_b64(&bytes[..16]).expect("16 bytes make a salt");
    hasher().hash_password(password.as_bytes(), &salt).map(|h| h.to_string()).unwrap_or_default()
}

/// Whether `given` is the password `stored` keeps (a hash, or a password in clear).
/// An empty stored password matches nothing.
pub fn verify(stored: &str, given: &str) -> bool {
    if stored.is_empty() {
        return false;
    }
    if !is_hashed(stored) {
        // Compared whole, whatever the first difference.
        return stored.len() == given.len()
            && stored.bytes().zip(given.bytes()).fold(0u8, |d, (a, b)| d | (a ^ b)) == 0;
    }
    PasswordHash::new(stored).is_ok_and(|h| hasher().verify_password(given.as_bytes(), &h).is_ok())
}

/// Hashes every password of `passwords` still in clear: `(faction id, password)`
/// of game `game`, written for `turn`; on as many threads as the machine has.
pub fn seal<'a>(passwords: impl IntoIterator<Item = (&'a str, &'a mut String)>, game: &str, turn: u32) {
    let mut clear: Vec<(&str, &mut String)> =
        passwords.into_iter().filter(|(_, p)| !p.is_empty() && !is_hashed(p)).collect();
    if clear.is_empty() {
        return;
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let hashes = crate::core::engine::parallel::map_ordered(&clear, threads, |(f, p)| hash(p, game, f, turn));
    for ((_, p), h) in clear.iter_mut().zip(hashes) {
        **p = h;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_verifies_its_password_only_and_differs_by_game_faction_and_turn() {
        let h = hash("pswd1", "alpha", "f01", 0);
        assert!(is_hashed(&h) && h.starts_with("$argon2id$v=19$m=1024,t=2,p=1$"), "{h}");
        assert!(!h.contains("pswd1"));
        assert!(verify(&h, "pswd1"));
        assert!(!verify(&h, "pswd2") && !verify(&h, "") && !verify(&h, "PSWD1"));
        assert_eq!(h, hash("pswd1", "alpha", "f01", 0), "the same bytes in any folder");
        let others =
            [hash("pswd1", "beta", "f01", 0), hash("pswd1", "alpha", "f02", 0), hash("pswd1", "alpha", "f01", 1)];
        for o in &others {
            assert_ne!(o, &h);
            assert!(verify(o, "pswd1"));
        }
    }

    #[test]
    fn passwords_in_clear_still_verify_and_are_sealed_once() {
        assert!(verify("pswd1", "pswd1") && !verify("pswd1", "pswd") && !verify("", ""));
        let (mut a, mut b, mut c) = ("pswd1".to_string(), hash("x", "g", "f02", 0), String::new());
        let kept = b.clone();
        seal([("f01", &mut a), ("f02", &mut b), ("f03", &mut c)], "g", 3);
        assert!(is_hashed(&a) && verify(&a, "pswd1"));
        assert_eq!((b, c), (kept, String::new()), "hashes and empty passwords are left alone");
    }
}
