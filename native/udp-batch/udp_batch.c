/*
 * The DNS plane's UDP socket, read and written many datagrams per system call.
 *
 * node:dgram makes one recvmsg and one sendmsg per datagram, allocates a 64 KiB buffer for each
 * one received and builds its sender's address object field by field: per query, that cost more
 * CPU than the DNS plane's own work (BENCHMARKS.md). This socket takes up to SLOTS datagrams with
 * one recvmmsg into buffers it keeps, calls JavaScript once for all of them, and sends the answers
 * made during that call with one sendmmsg. Linux only (recvmmsg/sendmmsg); elsewhere, or if this
 * fails to build, the plane uses node:dgram (src/planes/dns/datagrams/).
 *
 * A sender (openSender/sendMany/closeSender) is the other half alone: an unbound socket that sends
 * up to SEND_MAX datagrams packed in one buffer to its one address with one sendmmsg (the edge's
 * log forwarding over UDP: a turn's lines in one system call, not one each).
 *
 * Shared with JavaScript (buffers it allocates and keeps alive; their memory does not move):
 *   in_data   SLOTS x SLOT_BYTES  the datagrams of the current batch, one per slot
 *   in_meta   SLOTS x META_INTS   per slot: length (-1 if larger than a slot), family (4/6), port,
 *                                 0, then the address's 4 or 16 bytes
 *   out_data  SLOTS x SLOT_BYTES  the answers made during the batch
 *   out_meta  SLOTS x 3           per answer: the slot whose sender gets it, offset in out_data, length
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <node_api.h>
#include <uv.h>

#define SLOTS 64
/* Queries are a few dozen bytes; answers over UDP are at most 4096 (the plane's largest EDNS size). */
#define SLOT_BYTES 4096
#define META_INTS 8
/* Batches read per readiness before the event loop gets its turn back (the API shares the loop). */
#define BATCHES_PER_WAKE 8

typedef struct {
  int fd;
  int closing;
  /* Inside on_readable: a close asked for by JavaScript then releases at the batch's end. */
  int reading;
  uv_poll_t poll;
  napi_env env;
  napi_ref on_batch;
  napi_ref self;
  napi_ref buffers[4];
  napi_async_context async;
  uint8_t *in_data;
  int32_t *in_meta;
  uint8_t *out_data;
  int32_t *out_meta;
  struct sockaddr_storage names[SLOTS];
  struct iovec in_iov[SLOTS];
  struct mmsghdr in_msgs[SLOTS];
  struct iovec out_iov[SLOTS];
  struct mmsghdr out_msgs[SLOTS];
} batch_socket;

static const char *errno_code(int err) {
  switch (err) {
    case EADDRINUSE: return "EADDRINUSE";
    case EADDRNOTAVAIL: return "EADDRNOTAVAIL";
    case EACCES: return "EACCES";
    case EAFNOSUPPORT: return "EAFNOSUPPORT";
    case EINVAL: return "EINVAL";
    case EMFILE: return "EMFILE";
    default: return "EIO";
  }
}

/* Thrown as Node's own socket errors are (code, errno, syscall), so callers treat both alike. */
static napi_value throw_errno(napi_env env, int err, const char *syscall) {
  char text[160];
  snprintf(text, sizeof text, "%s %s (%s)", syscall, errno_code(err), strerror(err));
  napi_value message, code, error, value;
  napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &message);
  napi_create_string_utf8(env, errno_code(err), NAPI_AUTO_LENGTH, &code);
  napi_create_error(env, code, message, &error);
  napi_create_string_utf8(env, syscall, NAPI_AUTO_LENGTH, &value);
  napi_set_named_property(env, error, "syscall", value);
  napi_create_int32(env, -err, &value);
  napi_set_named_property(env, error, "errno", value);
  napi_throw(env, error);
  return NULL;
}

static void *buffer_of(napi_env env, napi_value value, size_t at_least) {
  void *data = NULL;
  size_t length = 0;
  if (napi_get_buffer_info(env, value, &data, &length) != napi_ok || length < at_least) return NULL;
  return data;
}

static socklen_t name_length(const struct sockaddr_storage *name) {
  return name->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
}

static void describe(batch_socket *s, int slot) {
  int32_t *meta = s->in_meta + slot * META_INTS;
  const struct mmsghdr *msg = &s->in_msgs[slot];
  meta[0] = (msg->msg_hdr.msg_flags & MSG_TRUNC) ? -1 : (int32_t)msg->msg_len;
  const struct sockaddr_storage *name = &s->names[slot];
  if (name->ss_family == AF_INET6) {
    const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)name;
    meta[1] = 6;
    meta[2] = ntohs(a->sin6_port);
    memcpy(&meta[4], &a->sin6_addr, 16);
  } else {
    const struct sockaddr_in *a = (const struct sockaddr_in *)name;
    meta[1] = 4;
    meta[2] = ntohs(a->sin_port);
    memset(&meta[4], 0, 16);
    memcpy(&meta[4], &a->sin_addr, 4);
  }
  meta[3] = 0;
}

static void send_answers(batch_socket *s, int count) {
  int ready = 0;
  for (int i = 0; i < count; i++) {
    const int32_t *meta = s->out_meta + i * 3;
    int32_t slot = meta[0], offset = meta[1], length = meta[2];
    if (slot < 0 || slot >= SLOTS || offset < 0 || length < 0 || (int64_t)offset + length > (int64_t)SLOTS * SLOT_BYTES) continue;
    s->out_iov[ready].iov_base = s->out_data + offset;
    s->out_iov[ready].iov_len = (size_t)length;
    struct msghdr *h = &s->out_msgs[ready].msg_hdr;
    memset(h, 0, sizeof *h);
    h->msg_name = &s->names[slot];
    h->msg_namelen = name_length(&s->names[slot]);
    h->msg_iov = &s->out_iov[ready];
    h->msg_iovlen = 1;
    ready++;
  }
  for (int sent = 0; sent < ready;) {
    int n = sendmmsg(s->fd, s->out_msgs + sent, ready - sent, 0);
    if (n > 0) sent += n;
    else if (n < 0 && errno == EINTR) continue;
    /* The answer at `sent` could not go (a full send buffer, an unreachable sender): UDP may lose it, as node:dgram would. */
    else sent++;
  }
}

static void on_closed(uv_handle_t *handle) {
  batch_socket *s = handle->data;
  close(s->fd);
  free(s);
}

static void release(batch_socket *s) {
  napi_env env = s->env;
  napi_async_destroy(env, s->async);
  napi_delete_reference(env, s->on_batch);
  napi_delete_reference(env, s->self);
  for (int i = 0; i < 4; i++) napi_delete_reference(env, s->buffers[i]);
  uv_poll_stop(&s->poll);
  /* The descriptor is closed after libuv has let go of it. */
  uv_close((uv_handle_t *)&s->poll, on_closed);
}

static void on_readable(uv_poll_t *poll, int status, int events) {
  (void)events;
  batch_socket *s = poll->data;
  if (status < 0 || s->closing) return;
  napi_env env = s->env;
  napi_handle_scope scope;
  napi_open_handle_scope(env, &scope);
  napi_value callback, self;
  napi_get_reference_value(env, s->on_batch, &callback);
  napi_get_reference_value(env, s->self, &self);
  s->reading = 1;
  for (int batch = 0; batch < BATCHES_PER_WAKE && !s->closing; batch++) {
    for (int i = 0; i < SLOTS; i++) {
      s->in_msgs[i].msg_hdr.msg_namelen = sizeof(struct sockaddr_storage);
      s->in_msgs[i].msg_hdr.msg_flags = 0;
    }
    int received = recvmmsg(s->fd, s->in_msgs, SLOTS, MSG_DONTWAIT, NULL);
    if (received <= 0) break;
    for (int i = 0; i < received; i++) describe(s, i);
    napi_value count, result;
    napi_create_int32(env, received, &count);
    /* make_callback, not call_function: the promise jobs and nextTicks the batch queued run after it. */
    if (napi_make_callback(env, s->async, self, callback, 1, &count, &result) != napi_ok) {
      napi_value error;
      if (napi_get_and_clear_last_exception(env, &error) == napi_ok) napi_fatal_exception(env, error);
      break;
    }
    int32_t answers = 0;
    napi_get_value_int32(env, result, &answers);
    if (answers > 0 && !s->closing) send_answers(s, answers > SLOTS ? SLOTS : answers);
    if (received < SLOTS) break;
  }
  s->reading = 0;
  if (s->closing) release(s);
  napi_close_handle_scope(env, scope);
}

/* open(host, port, family, receiveBufferBytes, inData, inMeta, outData, outMeta, onBatch) -> { handle, port } */
static napi_value open_socket(napi_env env, napi_callback_info info) {
  size_t argc = 9;
  napi_value argv[9];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 9) {
    napi_throw_type_error(env, NULL, "open: 9 arguments expected");
    return NULL;
  }
  char host[INET6_ADDRSTRLEN + 1];
  size_t host_length = 0;
  int32_t port = 0, family = 4, receive_buffer = 0;
  napi_get_value_string_utf8(env, argv[0], host, sizeof host, &host_length);
  napi_get_value_int32(env, argv[1], &port);
  napi_get_value_int32(env, argv[2], &family);
  napi_get_value_int32(env, argv[3], &receive_buffer);

  struct sockaddr_storage address;
  memset(&address, 0, sizeof address);
  if (family == 6) {
    struct sockaddr_in6 *a = (struct sockaddr_in6 *)&address;
    a->sin6_family = AF_INET6;
    a->sin6_port = htons((uint16_t)port);
    if (inet_pton(AF_INET6, host, &a->sin6_addr) != 1) return throw_errno(env, EINVAL, "bind");
  } else {
    struct sockaddr_in *a = (struct sockaddr_in *)&address;
    a->sin_family = AF_INET;
    a->sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, host, &a->sin_addr) != 1) return throw_errno(env, EINVAL, "bind");
  }

  batch_socket *s = calloc(1, sizeof *s);
  if (s == NULL) return throw_errno(env, ENOMEM, "open");
  s->in_data = buffer_of(env, argv[4], SLOTS * SLOT_BYTES);
  s->in_meta = buffer_of(env, argv[5], SLOTS * META_INTS * sizeof(int32_t));
  s->out_data = buffer_of(env, argv[6], SLOTS * SLOT_BYTES);
  s->out_meta = buffer_of(env, argv[7], SLOTS * 3 * sizeof(int32_t));
  if (!s->in_data || !s->in_meta || !s->out_data || !s->out_meta) {
    free(s);
    napi_throw_type_error(env, NULL, "open: a shared buffer is missing or too small");
    return NULL;
  }

  int fd = socket(address.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    int err = errno;
    free(s);
    return throw_errno(env, err, "socket");
  }
  /* As node:dgram's recvBufferSize: Linux caps it at net.core.rmem_max without an error. */
  if (receive_buffer > 0) setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
  if (bind(fd, (struct sockaddr *)&address, name_length(&address)) < 0) {
    int err = errno;
    close(fd);
    free(s);
    return throw_errno(env, err, "bind");
  }
  struct sockaddr_storage bound;
  socklen_t bound_length = sizeof bound;
  getsockname(fd, (struct sockaddr *)&bound, &bound_length);
  int bound_port = ntohs(bound.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&bound)->sin6_port : ((struct sockaddr_in *)&bound)->sin_port);

  s->fd = fd;
  s->env = env;
  for (int i = 0; i < SLOTS; i++) {
    s->in_iov[i].iov_base = s->in_data + i * SLOT_BYTES;
    s->in_iov[i].iov_len = SLOT_BYTES;
    s->in_msgs[i].msg_hdr.msg_name = &s->names[i];
    s->in_msgs[i].msg_hdr.msg_iov = &s->in_iov[i];
    s->in_msgs[i].msg_hdr.msg_iovlen = 1;
  }
  for (int i = 0; i < 4; i++) napi_create_reference(env, argv[4 + i], 1, &s->buffers[i]);
  napi_create_reference(env, argv[8], 1, &s->on_batch);

  napi_value handle, name, result, value;
  napi_create_object(env, &handle);
  napi_wrap(env, handle, s, NULL, NULL, NULL);
  napi_create_reference(env, handle, 1, &s->self);
  napi_create_string_utf8(env, "edgeplane:udp-batch", NAPI_AUTO_LENGTH, &name);
  napi_async_init(env, handle, name, &s->async);

  uv_loop_t *loop;
  napi_get_uv_event_loop(env, &loop);
  uv_poll_init(loop, &s->poll, fd);
  s->poll.data = s;
  uv_poll_start(&s->poll, UV_READABLE, on_readable);

  napi_create_object(env, &result);
  napi_set_named_property(env, result, "handle", handle);
  napi_create_int32(env, bound_port, &value);
  napi_set_named_property(env, result, "port", value);
  return result;
}

/* The open socket a call names in its first of `count` arguments (read into argv), or NULL. */
static batch_socket *socket_argument(napi_env env, napi_callback_info info, size_t count, napi_value *argv) {
  size_t argc = count;
  void *s = NULL;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != count) return NULL;
  if (napi_unwrap(env, argv[0], &s) != napi_ok || s == NULL || ((batch_socket *)s)->closing) return NULL;
  return s;
}

static int source_of(const int32_t *meta, struct sockaddr_storage *name) {
  memset(name, 0, sizeof *name);
  if (meta[1] == 6) {
    struct sockaddr_in6 *a = (struct sockaddr_in6 *)name;
    a->sin6_family = AF_INET6;
    a->sin6_port = htons((uint16_t)meta[2]);
    memcpy(&a->sin6_addr, &meta[4], 16);
  } else if (meta[1] == 4) {
    struct sockaddr_in *a = (struct sockaddr_in *)name;
    a->sin_family = AF_INET;
    a->sin_port = htons((uint16_t)meta[2]);
    memcpy(&a->sin_addr, &meta[4], 4);
  } else {
    return -1;
  }
  return 0;
}

/* sendTo(handle, bytes, source): `source`, a copy of a slot's META_INTS, names the receiver. An answer made after its batch. */
static napi_value send_to(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  batch_socket *s = socket_argument(env, info, 3, argv);
  if (s == NULL) return NULL;
  void *data = NULL;
  size_t length = 0;
  const int32_t *meta = buffer_of(env, argv[2], META_INTS * sizeof(int32_t));
  struct sockaddr_storage name;
  if (napi_get_buffer_info(env, argv[1], &data, &length) != napi_ok || meta == NULL || source_of(meta, &name) < 0) {
    napi_throw_type_error(env, NULL, "sendTo: bytes and a source expected");
    return NULL;
  }
  sendto(s->fd, data, length, 0, (struct sockaddr *)&name, name_length(&name));
  return NULL;
}

/* addressOf(source) -> the address as text, as node:dgram reports it (inet_ntop). */
static napi_value address_of(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1], text;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  const int32_t *meta = argc == 1 ? buffer_of(env, argv[0], META_INTS * sizeof(int32_t)) : NULL;
  char out[INET6_ADDRSTRLEN];
  if (meta == NULL || (meta[1] != 4 && meta[1] != 6) || inet_ntop(meta[1] == 6 ? AF_INET6 : AF_INET, &meta[4], out, sizeof out) == NULL) {
    napi_throw_type_error(env, NULL, "addressOf: a source expected");
    return NULL;
  }
  napi_create_string_utf8(env, out, NAPI_AUTO_LENGTH, &text);
  return text;
}

static napi_value close_socket(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  batch_socket *s = socket_argument(env, info, 1, argv);
  if (s == NULL) return NULL;
  s->closing = 1;
  void *unused;
  napi_remove_wrap(env, argv[0], &unused);
  uv_poll_stop(&s->poll);
  if (!s->reading) release(s);
  return NULL;
}

/* Datagrams one sendMany takes at most (below the kernel's UIO_MAXIOV of 1024). */
#define SEND_MAX 256

typedef struct {
  int fd;
  struct sockaddr_storage destination;
  struct iovec iov[SEND_MAX];
  struct mmsghdr msgs[SEND_MAX];
} sender_socket;

static void sender_finalize(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  sender_socket *s = data;
  if (s->fd >= 0) close(s->fd);
  free(s);
}

/* openSender(host, port, family) -> handle: an unbound, non-blocking UDP socket sending to host:port (an address, not a name). */
static napi_value open_sender(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  char host[INET6_ADDRSTRLEN + 1];
  size_t host_length = 0;
  int32_t port = 0, family = 4;
  if (argc != 3 || napi_get_value_string_utf8(env, argv[0], host, sizeof host, &host_length) != napi_ok ||
      napi_get_value_int32(env, argv[1], &port) != napi_ok || napi_get_value_int32(env, argv[2], &family) != napi_ok || port < 1 || port > 65535) {
    napi_throw_type_error(env, NULL, "openSender: an address, a port and a family expected");
    return NULL;
  }
  sender_socket *s = calloc(1, sizeof *s);
  if (s == NULL) return throw_errno(env, ENOMEM, "open");
  if (family == 6) {
    struct sockaddr_in6 *a = (struct sockaddr_in6 *)&s->destination;
    a->sin6_family = AF_INET6;
    a->sin6_port = htons((uint16_t)port);
    if (inet_pton(AF_INET6, host, &a->sin6_addr) != 1) {
      free(s);
      return throw_errno(env, EINVAL, "connect");
    }
  } else {
    struct sockaddr_in *a = (struct sockaddr_in *)&s->destination;
    a->sin_family = AF_INET;
    a->sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, host, &a->sin_addr) != 1) {
      free(s);
      return throw_errno(env, EINVAL, "connect");
    }
  }
  s->fd = socket(s->destination.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (s->fd < 0) {
    int err = errno;
    free(s);
    return throw_errno(env, err, "socket");
  }
  napi_value handle;
  napi_create_object(env, &handle);
  napi_wrap(env, handle, s, sender_finalize, NULL, NULL);
  return handle;
}

/* The open sender `value` is, or NULL. */
static sender_socket *sender_argument(napi_env env, napi_value value) {
  void *s = NULL;
  if (napi_unwrap(env, value, &s) != napi_ok || s == NULL || ((sender_socket *)s)->fd < 0) return NULL;
  return s;
}

/*
 * sendMany(handle, data, lengths, count) -> datagrams handled: the first `count` datagrams packed
 * one after the other in `data` (their lengths in the Int32 buffer `lengths`), sent to the
 * sender's address with one sendmmsg. A datagram the kernel refuses (too large, no route) is
 * skipped, as UDP may lose it; a full send buffer stops the call: what is left is the next call's.
 */
static napi_value send_many(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4], result;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  sender_socket *s = argc == 4 ? sender_argument(env, argv[0]) : NULL;
  uint8_t *data = NULL;
  int32_t *lengths = NULL;
  size_t data_length = 0, lengths_bytes = 0;
  int32_t count = 0;
  if (s == NULL || napi_get_buffer_info(env, argv[1], (void **)&data, &data_length) != napi_ok ||
      napi_get_buffer_info(env, argv[2], (void **)&lengths, &lengths_bytes) != napi_ok || napi_get_value_int32(env, argv[3], &count) != napi_ok ||
      count < 0 || (size_t)count > lengths_bytes / sizeof(int32_t)) {
    napi_throw_type_error(env, NULL, "sendMany: a sender, data, lengths and a count expected");
    return NULL;
  }
  if (count > SEND_MAX) count = SEND_MAX;
  socklen_t namelen = name_length(&s->destination);
  size_t offset = 0;
  int ready = 0;
  for (; ready < count; ready++) {
    if (lengths[ready] < 0 || offset + (size_t)lengths[ready] > data_length) break;
    s->iov[ready].iov_base = data + offset;
    s->iov[ready].iov_len = (size_t)lengths[ready];
    offset += (size_t)lengths[ready];
    struct msghdr *h = &s->msgs[ready].msg_hdr;
    memset(h, 0, sizeof *h);
    h->msg_name = &s->destination;
    h->msg_namelen = namelen;
    h->msg_iov = &s->iov[ready];
    h->msg_iovlen = 1;
  }
  int handled = 0;
  while (handled < ready) {
    int n = sendmmsg(s->fd, s->msgs + handled, ready - handled, 0);
    if (n > 0) handled += n;
    else if (n < 0 && errno == EINTR) continue;
    else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS)) break;
    else handled++;
  }
  napi_create_int32(env, handled, &result);
  return result;
}

/* closeSender(handle): the socket closes now; the handle sends nothing more. */
static napi_value close_sender(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  sender_socket *s = argc == 1 ? sender_argument(env, argv[0]) : NULL;
  if (s == NULL) return NULL;
  close(s->fd);
  s->fd = -1;
  return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor functions[] = {
      {"open", NULL, open_socket, NULL, NULL, NULL, napi_enumerable, NULL},
      {"sendTo", NULL, send_to, NULL, NULL, NULL, napi_enumerable, NULL},
      {"addressOf", NULL, address_of, NULL, NULL, NULL, napi_enumerable, NULL},
      {"close", NULL, close_socket, NULL, NULL, NULL, napi_enumerable, NULL},
      {"openSender", NULL, open_sender, NULL, NULL, NULL, napi_enumerable, NULL},
      {"sendMany", NULL, send_many, NULL, NULL, NULL, napi_enumerable, NULL},
      {"closeSender", NULL, close_sender, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  napi_define_properties(env, exports, sizeof functions / sizeof functions[0], functions);
  napi_value value;
  napi_create_int32(env, SLOTS, &value);
  napi_set_named_property(env, exports, "SLOTS", value);
  napi_create_int32(env, SLOT_BYTES, &value);
  napi_set_named_property(env, exports, "SLOT_BYTES", value);
  napi_create_int32(env, META_INTS, &value);
  napi_set_named_property(env, exports, "META_INTS", value);
  napi_create_int32(env, SEND_MAX, &value);
  napi_set_named_property(env, exports, "SEND_MAX", value);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
