//! Building text fast: [`put!`](crate::put) pushes pieces (strings, characters,
//! integers) onto a `String` one after another, without the formatting machinery
//! of `write!`, which pads and aligns every argument even when asked for neither.
//! Reports are most of what a turn writes: their hot lines are built this way.

/// A piece of text [`put!`](crate::put) can push.
pub trait Piece {
    /// Pushes the piece onto `out`.
    fn put(&self, out: &mut String);
}

impl Piece for str {
    #[inline]
    fn put(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Piece for String {
    #[inline]
    fn put(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Piece for std::borrow::Cow<'_, str> {
    #[inline]
    fn put(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Piece for char {
    #[inline]
    fn put(&self, out: &mut String) {
        out.push(*self);
    }
}

impl<T: Piece + ?Sized> Piece for &T {
    #[inline]
    fn put(&self, out: &mut String) {
        (**self).put(out);
    }
}

macro_rules! integers {
    ($($t:ty),*) => {$(
        impl Piece for $t {
            #[inline]
            fn put(&self, out: &mut String) {
                out.push_str(itoa::Buffer::new().format(*self));
            }
        }
    )*};
}

integers!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

/// Pushes each piece onto the string `out`, in order: `put!(o, name, " [", id, "]")`.
/// Every piece is a [`Piece`](crate::core::text::Piece): `&str`, `String`, `char`
/// or an integer, which is written as `Display` writes it.
#[macro_export]
macro_rules! put {
    ($out:expr, $($piece:expr),+ $(,)?) => {{
        let out: &mut String = $out;
        $( $crate::core::text::Piece::put(&$piece, out); )+
    }};
}

#[cfg(test)]
mod tests {
    #[test]
    fn pieces_are_written_as_display_writes_them() {
        let mut o = String::new();
        let (name, n, m, neg) = (String::from("Pool"), 30u32, u64::MAX, -7i32);
        crate::put!(&mut o, name, " [", "U503", "], ", n, ' ', m, ' ', neg, ' ', 0usize, ' ', i64::MIN);
        assert_eq!(o, format!("{name} [U503], {n} {m} {neg} 0 {}", i64::MIN));
    }
}
