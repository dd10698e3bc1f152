//! The native CLI's allocator: the system allocator, except that a request
//! of 1 GiB or more is mapped lazily (`MAP_NORESERVE`) instead of being
//! refused.
//!
//! Why: `groupscope broker` decodes requests from the network with the
//! `kafka-protocol` codec, which pre-allocates `Vec::with_capacity(n)` for
//! an array whose count `n` comes from the frame. A crafted frame of a few
//! bytes can claim 2^31 elements; the system allocator refuses the
//! hundreds of GB, and Rust aborts the process on a refused allocation.
//! Mapped lazily, the capacity costs address space only: the decoder then
//! runs out of bytes after a few elements, reports a malformed request,
//! the connection is closed and the mapping is released. Only the pages
//! actually written are ever backed by memory. (Under
//! `vm.overcommit_memory = 2` the kernel refuses such a mapping too, and the
//! process aborts as before.)

use std::alloc::{GlobalAlloc, Layout, System};

pub struct LazyHuge;

/// From this size up, allocations are lazy mappings.
const HUGE: usize = 1 << 30;
/// mmap's alignment.
const PAGE: usize = 4096;

fn huge(layout: &Layout) -> bool {
    layout.size() >= HUGE && layout.align() <= PAGE
}

unsafe fn map(size: usize) -> *mut u8 {
    // SAFETY: an anonymous private mapping, no file, no fixed address.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            size,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        std::ptr::null_mut()
    } else {
        p.cast()
    }
}

// SAFETY: every block is freed by the allocator that made it: `huge`
// decides by the layout, which `dealloc` receives unchanged; `realloc`
// across the threshold goes through alloc + copy + dealloc.
unsafe impl GlobalAlloc for LazyHuge {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if huge(&layout) {
            unsafe { map(layout.size()) }
        } else {
            unsafe { System.alloc(layout) }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if huge(&layout) {
            // Anonymous mappings are zero-filled.
            unsafe { map(layout.size()) }
        } else {
            unsafe { System.alloc_zeroed(layout) }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if huge(&layout) {
            unsafe {
                libc::munmap(ptr.cast(), layout.size());
            }
        } else {
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let Ok(new_layout) = Layout::from_size_align(new_size, layout.align()) else {
            return std::ptr::null_mut();
        };
        if !huge(&layout) && !huge(&new_layout) {
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        let new = unsafe { self.alloc(new_layout) };
        if !new.is_null() {
            unsafe {
                std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
        }
        new
    }
}
