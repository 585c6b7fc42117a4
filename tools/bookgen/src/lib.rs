//! Book tooling: the CWEB apparatus (fragment names, cross-references, index)
//! computed from the sources, and the book build. (To be written.)
