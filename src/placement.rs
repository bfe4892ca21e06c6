//! Caller-placed key state: build a key where you choose (locked memory, a
//! guarded page, a pool) and have it wiped there when dropped.
//!
//! - [`KeySlot<K>`] is uninitialised storage for a key type, on the stack, in
//!   a struct, or in memory the caller allocated.
//! - [`AeadKey::new_in`](crate::AeadKey::new_in) builds the key state inside a slot,
//!   field by field (the state is never moved after it is built), and returns a
//!   [`Placed`] guard that dereferences to the key.
//! - Dropping the guard drops the key (which zeroizes its round keys and
//!   GHASH powers) and then overwrites every byte of the slot with zeros;
//!   dropping the slot overwrites them again, so a guard that was forgotten
//!   (`mem::forget`) still leaves no key behind once its slot goes.
//! - For memory the caller allocates itself (e.g. `mmap` + `mlock`),
//!   [`key_state_layout`] gives the size and alignment, and the `unsafe`
//!   [`AeadKey::new_at`](crate::AeadKey::new_at) builds the key at a raw pointer.
//!
//! Which memory is safe: any the process owns and keeps — the stack, the
//! heap, `mlock`ed or guarded pages. Not memory the system may zero or take
//! away under the key: a `MADV_WIPEONFORK` or `MADV_DONTFORK` page is zero in
//! a child process, and so is the key placed there. A key notices (a non-zero
//! mark in its state, checked before every call) and returns
//! [`Error::KeyStateLost`](crate::Error::KeyStateLost) instead of sealing
//! with all-zero round keys; rebuild it from its bytes in the child.
//!
//! ```
//! use hardware_aead::{aes_gcm::Aes256Gcm, placement::KeySlot};
//!
//! # fn main() -> Result<(), hardware_aead::Error> {
//! let mut slot = KeySlot::<Aes256Gcm>::new();
//! {
//!     let key = Aes256Gcm::new_in(&mut slot, &[7; 32])?;
//!     let sealed = key.seal(&[0; 12], b"", b"in place")?;
//!     assert_eq!(key.open(&[0; 12], b"", &sealed)?, b"in place");
//! } // the key is dropped and the slot's bytes are zero here
//! # Ok(()) }
//! ```

use core::alloc::Layout;
use core::fmt;
use core::mem::MaybeUninit;
use core::ops::Deref;

/// Uninitialised storage for one key of type `K`.
///
/// ```
/// use hardware_aead::{aes_gcm::Aes128Gcm, placement::KeySlot};
/// let slot = KeySlot::<Aes128Gcm>::new();
/// assert_eq!(core::mem::size_of_val(&slot), core::mem::size_of::<Aes128Gcm>());
/// ```
#[repr(transparent)]
pub struct KeySlot<K> {
    storage: MaybeUninit<K>,
}

impl<K> KeySlot<K> {
    /// An empty slot.
    ///
    /// ```
    /// # use hardware_aead::{aes_gcm_siv::Aes256GcmSiv, placement::KeySlot};
    /// static_assertions_free(KeySlot::<Aes256GcmSiv>::new());
    /// # fn static_assertions_free<T>(_: T) {}
    /// ```
    pub const fn new() -> Self {
        Self {
            storage: MaybeUninit::uninit(),
        }
    }

    /// A pointer to the slot's storage, valid for writes of one `K`.
    pub(crate) fn as_mut_ptr(&mut self) -> *mut K {
        self.storage.as_mut_ptr()
    }
}

impl<K> Default for KeySlot<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K> fmt::Debug for KeySlot<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeySlot").finish_non_exhaustive()
    }
}

/// A key built inside a [`KeySlot`]; dereferences to the key. Dropping it
/// drops the key and zeroes every byte of the slot.
///
/// ```
/// use hardware_aead::{aes_gcm_siv::Aes128GcmSiv, placement::KeySlot};
/// # fn main() -> Result<(), hardware_aead::Error> {
/// let mut slot = KeySlot::new();
/// let key = Aes128GcmSiv::new_in(&mut slot, &[1; 16])?;
/// println!("{:?}", key.tier());
/// # Ok(()) }
/// ```
pub struct Placed<'a, K> {
    slot: &'a mut KeySlot<K>,
}

impl<'a, K> Placed<'a, K> {
    /// Wraps a slot whose key has been built.
    ///
    /// # Safety
    /// `slot` must hold a fully initialised `K`.
    pub(crate) unsafe fn new(slot: &'a mut KeySlot<K>) -> Self {
        Self { slot }
    }
}

impl<K> Deref for Placed<'_, K> {
    type Target = K;

    fn deref(&self) -> &K {
        // SAFETY: a `Placed` exists only for a slot whose key was built
        // (`Placed::new`), and it is dropped only by `Placed::drop`.
        unsafe { self.slot.storage.assume_init_ref() }
    }
}

impl<K> Drop for Placed<'_, K> {
    fn drop(&mut self) {
        // SAFETY: the slot holds an initialised `K` (see `deref`); it is dropped
        // exactly once, here, and not used afterwards except as bytes.
        unsafe { core::ptr::drop_in_place(self.slot.as_mut_ptr()) };
        self.slot.wipe();
    }
}

impl<K> KeySlot<K> {
    /// Overwrites every byte of the storage with zeros (volatile stores, which
    /// the optimiser may not drop though nothing reads the bytes again). The
    /// storage holds no live value afterwards.
    fn wipe(&mut self) {
        // SAFETY: the storage is `size_of::<K>()` bytes, valid for writes, and
        // is overwritten as bytes (`MaybeUninit<u8>` has no validity needs).
        let bytes = unsafe {
            core::slice::from_raw_parts_mut(
                self.as_mut_ptr().cast::<MaybeUninit<u8>>(),
                size_of::<K>(),
            )
        };
        for b in bytes.iter_mut() {
            // SAFETY: `b` is one byte of the slot.
            unsafe { core::ptr::write_volatile(b.as_mut_ptr(), 0) };
        }
        core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
    }
}

/// A slot is wiped when it goes, too: if its [`Placed`] guard was forgotten
/// (`mem::forget`), the key in it was never dropped, and this is what still
/// clears its bytes. (The key's own `Drop` only zeroizes, so skipping it
/// leaves nothing undone.)
impl<K> Drop for KeySlot<K> {
    fn drop(&mut self) {
        self.wipe();
    }
}

impl<K: fmt::Debug> fmt::Debug for Placed<'_, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Placed").field(&**self).finish()
    }
}

/// The size and alignment of `K`'s key state, for callers who allocate it
/// themselves and build it with [`AeadKey::new_at`](crate::AeadKey::new_at).
///
/// ```
/// use hardware_aead::{aes_gcm::Aes256Gcm, placement::key_state_layout};
/// let layout = key_state_layout::<Aes256Gcm>();
/// assert!(layout.size() <= 400);
/// assert_eq!(layout.align(), 16);
/// ```
pub fn key_state_layout<K>() -> Layout {
    Layout::new::<K>()
}
