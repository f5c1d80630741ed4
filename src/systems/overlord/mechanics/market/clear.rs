//! The clearing of one item's market (MKT-CLEAR, MKT-PAY, TV-MARKET), as a pure
//! function of the bids and asks.
//!
//! The price chosen is the one at which the most items change hands: at price `P`
//! the buyers bidding `P` or more want `D(P)`, the sellers asking `P` or less offer
//! `S(P)`, and `min(D(P), S(P))` trade. Only bid and ask prices need be tried (the
//! volume changes nowhere else); among prices giving the same volume the lowest wins
//! (RULINGS 7). Buyers below the price and sellers above it trade nothing. The side
//! that wants more than the other gives is served by price (the highest bids, the
//! lowest asks first), then in the order the offers were made. Each buyer pays its
//! own bid and each seller receives its own ask (RULINGS 7): what the caller does
//! with the fills.

/// One side's offer: a price per item and a quantity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offer {
    /// Price per item: the most a buyer pays, the least a seller takes.
    pub price: u32,
    /// Items wanted or offered.
    pub quantity: u32,
}

/// The outcome of a clearing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cleared {
    /// The clearing price.
    pub price: u32,
    /// Items that change hands.
    pub volume: u32,
    /// What each buyer gets, in the order given.
    pub bought: Vec<u32>,
    /// What each seller sells, in the order given.
    pub sold: Vec<u32>,
}

/// Clears one item's market; `None` when nothing can trade.
pub fn clear(buyers: &[Offer], sellers: &[Offer]) -> Option<Cleared> {
    let mut prices: Vec<u32> = buyers.iter().chain(sellers).filter(|o| o.quantity > 0).map(|o| o.price).collect();
    prices.sort_unstable();
    prices.dedup();
    let mut bids: Vec<Offer> = buyers.iter().copied().filter(|o| o.quantity > 0).collect();
    let mut asks: Vec<Offer> = sellers.iter().copied().filter(|o| o.quantity > 0).collect();
    bids.sort_unstable_by_key(|o| o.price);
    asks.sort_unstable_by_key(|o| o.price);
    // Prices ascending: demand falls and supply rises; one sweep of each list.
    let mut demand: u64 = bids.iter().map(|o| u64::from(o.quantity)).sum();
    let (mut supply, mut b, mut a) = (0u64, 0usize, 0usize);
    let mut best: Option<(u64, u32)> = None;
    for &p in &prices {
        while b < bids.len() && bids[b].price < p {
            demand -= u64::from(bids[b].quantity);
            b += 1;
        }
        while a < asks.len() && asks[a].price <= p {
            supply += u64::from(asks[a].quantity);
            a += 1;
        }
        let v = demand.min(supply);
        if v > 0 && best.is_none_or(|(bv, _)| v > bv) {
            best = Some((v, p));
        }
    }
    let (volume, price) = best?;
    let volume = volume as u32;
    Some(Cleared {
        price,
        volume,
        bought: serve(buyers, volume, |o| o.price >= price, true),
        sold: serve(sellers, volume, |o| o.price <= price, false),
    })
}

/// Shares `volume` among the eligible offers: by price (highest first for buyers),
/// then in the order given.
fn serve(offers: &[Offer], volume: u32, eligible: impl Fn(&Offer) -> bool, highest_first: bool) -> Vec<u32> {
    let mut order: Vec<usize> = (0..offers.len()).filter(|&i| eligible(&offers[i])).collect();
    // A stable sort keeps the order given among equal prices.
    if highest_first {
        order.sort_by_key(|&i| std::cmp::Reverse(offers[i].price));
    } else {
        order.sort_by_key(|&i| offers[i].price);
    }
    let mut fills = vec![0; offers.len()];
    let mut left = volume;
    for i in order {
        let n = offers[i].quantity.min(left);
        fills[i] = n;
        left -= n;
    }
    fills
}

#[cfg(test)]
mod tests {
    use super::*;

    fn o(price: u32, quantity: u32) -> Offer {
        Offer { price, quantity }
    }

    #[test]
    fn the_price_that_trades_most_wins_tv_market_mkt_clear() {
        // TV-MARKET. Bids: 10 at $12, 10 at $10, 10 at $8. Asks: 10 at $7, 10 at $9,
        // 10 at $11. At $9 or $10: 20 wanted, 20 offered → 20 trade; at $8: 30
        // wanted, 10 offered; at $11: 10 and 30. The lowest of the best prices, $9.
        let c = clear(&[o(12, 10), o(10, 10), o(8, 10)], &[o(7, 10), o(9, 10), o(11, 10)]).unwrap();
        assert_eq!((c.price, c.volume), (9, 20));
        // The buyer below the price and the seller above it trade nothing.
        assert_eq!(c.bought, [10, 10, 0]);
        assert_eq!(c.sold, [10, 10, 0]);
    }

    #[test]
    fn ties_go_to_the_lowest_price_rulings_7() {
        // One bid at $20 for 5, one ask at $10 for 5: every price from 10 to 20 trades
        // 5; the lowest, $10.
        let c = clear(&[o(20, 5)], &[o(10, 5)]).unwrap();
        assert_eq!((c.price, c.volume), (10, 5));
    }

    #[test]
    fn no_trade_when_every_bid_is_below_every_ask() {
        assert_eq!(clear(&[o(5, 10)], &[o(6, 10)]), None);
        assert_eq!(clear(&[], &[o(6, 10)]), None);
        assert_eq!(clear(&[o(6, 0)], &[o(6, 10)]), None);
    }

    #[test]
    fn the_long_side_is_served_by_price_then_in_order() {
        // 30 wanted, 15 offered at $10: the $14 bid first, then the two $12 bids in the
        // order given.
        let c = clear(&[o(12, 10), o(14, 10), o(12, 10)], &[o(10, 15)]).unwrap();
        assert_eq!((c.price, c.volume), (10, 15));
        assert_eq!(c.bought, [5, 10, 0]);
        // Sellers: the cheapest first.
        let c = clear(&[o(20, 12)], &[o(15, 10), o(11, 10), o(15, 10)]).unwrap();
        assert_eq!((c.price, c.volume), (15, 12));
        assert_eq!(c.sold, [2, 10, 0]);
    }

    #[test]
    fn the_volume_is_the_largest_over_every_price() {
        // A brute force over every price from 0 to 40 agrees on random books.
        let mut seed = 7u64;
        let mut next = |m: u32| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) as u32) % m
        };
        for _ in 0..500 {
            let buyers: Vec<Offer> = (0..next(5)).map(|_| o(next(40), next(20))).collect();
            let sellers: Vec<Offer> = (0..next(5)).map(|_| o(next(40), next(20))).collect();
            let mut best = (0u32, 0u32);
            for p in 0..=40 {
                let d: u32 = buyers.iter().filter(|b| b.price >= p).map(|b| b.quantity).sum();
                let s: u32 = sellers.iter().filter(|b| b.price <= p).map(|b| b.quantity).sum();
                if d.min(s) > best.0 {
                    best = (d.min(s), p);
                }
            }
            match clear(&buyers, &sellers) {
                None => assert_eq!(best.0, 0, "{buyers:?} {sellers:?}"),
                Some(c) => {
                    assert_eq!((c.volume, c.price), best, "{buyers:?} {sellers:?}");
                    assert_eq!(c.bought.iter().sum::<u32>(), c.volume);
                    assert_eq!(c.sold.iter().sum::<u32>(), c.volume);
                    for (f, b) in c.bought.iter().zip(&buyers) {
                        assert!(*f <= b.quantity && (*f == 0 || b.price >= c.price));
                    }
                    for (f, s) in c.sold.iter().zip(&sellers) {
                        assert!(*f <= s.quantity && (*f == 0 || s.price <= c.price));
                    }
                }
            }
        }
    }
}
