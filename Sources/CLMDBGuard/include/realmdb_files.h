/*
 * realmdb_files.h: the file-system calls of creating a realm file that Swift's Glibc module does
 * not declare (renameat2 needs _GNU_SOURCE). See LMDBEnvironment+Create.swift.
 */
#ifndef REALMDB_FILES_H
#define REALMDB_FILES_H

/* Gives the file `from` the name `to` unless `to` exists; returns 0, or -1 with errno (EEXIST
 * when `to` exists). Uses renameat2(RENAME_NOREPLACE); where the file system does not support
 * it, link(2) then unlink(2) (a crash between them leaves `from` as a second name of `to`, which
 * the caller recognizes by its link count). */
int realmdb_rename_noreplace(const char *from, const char *to);

#endif
