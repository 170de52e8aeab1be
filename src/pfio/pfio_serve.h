/* The server side of PFIO's connections (ServerThread): one thread per client,
 * served round-robin with one blocking receive at a time; each staged block is
 * received into its own buffer (MPI_Irecv posted when the control message has
 * been handled) and kept in the thread's backlog until the write phase. */
#ifndef CLIMIO_PFIO_SERVE_H
#define CLIMIO_PFIO_SERVE_H

#include "pfio.h"

typedef struct pf_bl {
    pf_stage st;
    void *data;                 /* the client's block */
    int64_t bytes;
    int nreq;                   /* receives still to complete (0: data is here) */
    MPI_Request *reqs;
} pf_bl;

typedef struct pf_thread {
    int client;                 /* world rank of the client; -1: in the same process */
    int done, terminated;
    int nbl, blcap;
    pf_bl *bl;
    int ncoll;
    pf_collection *coll;        /* registered with AddHistCollection, id = index + 1 */
} pf_thread;

typedef struct pf_serve pf_serve;
struct pf_serve {
    pf_ctx *c;
    int nthreads;
    pf_thread *t;
    /* called when every live thread has sent CollectiveStageDone */
    void (*phase)(pf_serve *s);
    void *impl;
};

/* Threads for the clients [first, first + n) of the model (world ranks from the layout). */
void pf_serve_init(pf_serve *s, pf_ctx *c, int nclients, const int *clients);
void pf_serve_free(pf_serve *s);
/* The MpiServer / frontend loop: until every client has sent Terminate. */
void pf_serve_loop(pf_serve *s);
/* Complete a backlog entry's receive. */
void pf_serve_wait(pf_ctx *c, pf_bl *b);
/* Drop every thread's backlog and done marks (after a phase). */
void pf_serve_clear(pf_serve *s);
/* Collections of the phase in the order they first appear in thread 0's backlog. */
int pf_serve_collections(const pf_serve *s, int **ids);
const pf_collection *pf_serve_collection(const pf_serve *s, int id);

/* MPI_Put a client's block into the global array of its request, which starts
 * at disp in target's window (a subarray datatype, as RDMAReference does). */
void pf_put_block(const pf_stage *st, const void *data, int target, MPI_Aint disp, MPI_Win win);

/* Which server rank serves model rank m of C when S ranks receive: block mapping. */
int pf_server_of_client(int m, int C, int S);

#endif
