//! Who is logged in, and how often a login failed: sessions by random token, and
//! the limits on tries per address and per faction.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// A logged-in faction.
#[derive(Debug, Clone)]
pub struct Session {
    /// The faction's id, as the game writes it.
    pub faction: String,
    /// The password it logged in with, kept in memory only: it stands for the
    /// `<password>` of the order files the session checks and submits.
    pub password: String,
    /// The token every request that changes something must carry.
    pub csrf: String,
    last: Instant,
}

/// How long a session lasts unused.
const IDLE: Duration = Duration::from_secs(12 * 3600);

/// Failed logins allowed per address in [`WINDOW`], and per faction.
pub const PER_ADDRESS: u32 = 5;
/// Failed logins allowed per faction in [`WINDOW`], from any address.
pub const PER_FACTION: u32 = 20;
/// The window the failures are counted in.
pub const WINDOW: Duration = Duration::from_secs(600);

/// Sessions and failed logins.
#[derive(Default)]
pub struct Sessions {
    sessions: HashMap<String, Session>,
    by_address: HashMap<IpAddr, Failures>,
    by_faction: HashMap<String, Failures>,
}

#[derive(Debug, Clone, Copy)]
struct Failures {
    since: Instant,
    count: u32,
}

impl Failures {
    fn current(self, now: Instant) -> u32 {
        if now.duration_since(self.since) > WINDOW { 0 } else { self.count }
    }
}

/// 32 bytes of the operating system's randomness, as hex.
pub fn token() -> std::io::Result<String> {
    use std::io::Read;
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

impl Sessions {
    /// Whether a login from `address` for `faction` may be tried now.
    pub fn may_try(&self, address: IpAddr, faction: &str, now: Instant) -> bool {
        let key = faction.to_ascii_lowercase();
        self.by_address.get(&address).is_none_or(|f| f.current(now) < PER_ADDRESS)
            && self.by_faction.get(&key).is_none_or(|f| f.current(now) < PER_FACTION)
    }

    /// Counts a failed login.
    pub fn failed(&mut self, address: IpAddr, faction: &str, now: Instant) {
        let bump = |f: &mut Failures| {
            if now.duration_since(f.since) > WINDOW {
                *f = Failures { since: now, count: 0 };
            }
            f.count += 1;
        };
        bump(self.by_address.entry(address).or_insert(Failures { since: now, count: 0 }));
        bump(self.by_faction.entry(faction.to_ascii_lowercase()).or_insert(Failures { since: now, count: 0 }));
        // Old counts go, so that the tables stay small.
        if self.by_address.len() > 10_000 {
            self.by_address.retain(|_, f| f.current(now) > 0);
        }
    }

    /// A new session for `faction`: its token.
    pub fn open(&mut self, faction: &str, password: &str, now: Instant) -> std::io::Result<String> {
        let t = token()?;
        let session = Session { faction: faction.into(), password: password.into(), csrf: token()?, last: now };
        self.sessions.retain(|_, s| now.duration_since(s.last) < IDLE);
        self.sessions.insert(t.clone(), session);
        Ok(t)
    }

    /// The session of `token`, if it is open, kept alive.
    pub fn get(&mut self, token: &str, now: Instant) -> Option<Session> {
        let s = self.sessions.get_mut(token)?;
        if now.duration_since(s.last) >= IDLE {
            self.sessions.remove(token);
            return None;
        }
        s.last = now;
        Some(s.clone())
    }

    /// Ends the session of `token`.
    pub fn close(&mut self, token: &str) {
        self.sessions.remove(token);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_are_limited_per_address_and_per_faction_and_forgotten_after_the_window() {
        let mut s = Sessions::default();
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let t0 = Instant::now();
        for _ in 0..PER_ADDRESS {
            assert!(s.may_try(a, "f01", t0));
            s.failed(a, "f01", t0);
        }
        assert!(!s.may_try(a, "f02", t0), "the address is stopped, whatever the faction");
        assert!(s.may_try(b, "f01", t0), "another address may still try");
        for k in 0..PER_FACTION {
            s.failed(std::net::IpAddr::from([10, 1, (k / 200) as u8, (k % 200) as u8]), "f01", t0);
        }
        assert!(!s.may_try(b, "F01", t0), "the faction is stopped, from any address");
        let later = t0 + WINDOW + Duration::from_secs(1);
        assert!(s.may_try(a, "f01", later));
    }

    #[test]
    fn a_session_is_found_by_its_token_only_until_it_is_closed() {
        let mut s = Sessions::default();
        let now = Instant::now();
        let t = s.open("f05", "secret", now).unwrap();
        assert_eq!(t.len(), 64);
        let got = s.get(&t, now).unwrap();
        assert_eq!((got.faction.as_str(), got.csrf.len()), ("f05", 64));
        assert_ne!(got.csrf, t);
        assert!(s.get("0".repeat(64).as_str(), now).is_none());
        assert!(s.get(&t, now + IDLE).is_none(), "idle too long");
        let t = s.open("f05", "secret", now).unwrap();
        s.close(&t);
        assert!(s.get(&t, now).is_none());
    }
}
