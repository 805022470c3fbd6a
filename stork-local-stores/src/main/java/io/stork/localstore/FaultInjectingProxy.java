package io.stork.localstore;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * An HTTP proxy on loopback, in front of the store, that fails chosen requests the way stores and
 * networks do: a 503 (Swift style, or S3 {@code SlowDown}), or a connection dropped before any answer.
 * Other requests are forwarded byte for byte, one request per connection ({@code Connection: close} is
 * forced so each request can be judged on its own). The Host header is kept, so S3 signatures still match.
 */
public final class FaultInjectingProxy implements Closeable {

    /** What to do with a request. */
    public enum Fault {
        /** 503 with an S3 {@code SlowDown} error body. */
        SLOW_DOWN,
        /** 503 with a plain body, as Swift's proxy answers when overloaded. */
        SERVICE_UNAVAILABLE,
        /** 401 once, as when a Swift token has expired. */
        UNAUTHORIZED,
        /** Close the connection without an answer (reset). */
        DROP_CONNECTION,
        /**
         * Forward the request and let the store apply it, then reset the client's connection instead of
         * relaying the final answer: the client cannot tell whether its request took effect. Interim
         * {@code 100 Continue} answers are relayed, so a client waiting for one still sends its body.
         */
        FORWARD_THEN_DROP_ANSWER
    }

    /** A rule: the next {@code times} requests whose request line matches get the fault. */
    private static final class Rule {
        final Predicate<String> matches;
        final Fault fault;
        final AtomicInteger remaining;

        Rule(Predicate<String> matches, Fault fault, int times) {
            this.matches = matches;
            this.fault = fault;
            this.remaining = new AtomicInteger(times);
        }
    }

    private final ServerSocket server;
    private final int upstreamPort;
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "fault-proxy");
        t.setDaemon(true);
        return t;
    });
    private final List<Rule> rules = new CopyOnWriteArrayList<>();
    private final List<String> injected = new CopyOnWriteArrayList<>();
    private final AtomicInteger forwarded = new AtomicInteger();

    public FaultInjectingProxy(int upstreamPort) throws IOException {
        this.upstreamPort = upstreamPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        pool.execute(this::acceptLoop);
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Fails the next {@code times} requests whose request line (e.g. "PUT /bucket/key HTTP/1.1") matches. */
    public FaultInjectingProxy failNext(int times, Fault fault, Predicate<String> requestLine) {
        rules.add(new Rule(requestLine, fault, times));
        return this;
    }

    /** Request lines of the requests that got a fault, in order. */
    public List<String> injectedFaults() {
        return new ArrayList<>(injected);
    }

    public int forwardedRequests() {
        return forwarded.get();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                pool.execute(() -> handle(client));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void handle(Socket client) {
        try (client) {
            InputStream in = client.getInputStream();
            byte[] head = readHead(in);
            if (head == null) {
                return;
            }
            String headText = new String(head, StandardCharsets.ISO_8859_1);
            String requestLine = headText.substring(0, headText.indexOf("\r\n"));
            Fault fault = faultFor(requestLine);
            if (fault == Fault.FORWARD_THEN_DROP_ANSWER) {
                injected.add(fault + " " + requestLine);
                forwardThenDrop(client, in, headText);
                return;
            }
            if (fault != null) {
                injected.add(fault + " " + requestLine);
                answer(client, fault);
                return;
            }
            forwarded.incrementAndGet();
            try (Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort)) {
                OutputStream toStore = upstream.getOutputStream();
                toStore.write(withConnectionClose(headText).getBytes(StandardCharsets.ISO_8859_1));
                toStore.flush();
                pool.execute(() -> pump(in, toStore));
                upstream.getInputStream().transferTo(client.getOutputStream());
            }
        } catch (IOException e) {
            // A client or the store hung up: nothing to report, the client sees the failure itself.
        }
    }

    private void forwardThenDrop(Socket client, InputStream in, String headText) throws IOException {
        forwarded.incrementAndGet();
        try (Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort)) {
            OutputStream toStore = upstream.getOutputStream();
            toStore.write(withConnectionClose(headText).getBytes(StandardCharsets.ISO_8859_1));
            toStore.flush();
            pool.execute(() -> pump(in, toStore));
            InputStream fromStore = upstream.getInputStream();
            byte[] answer;
            while ((answer = readHead(fromStore)) != null
                    && new String(answer, StandardCharsets.ISO_8859_1).startsWith("HTTP/1.1 100")) {
                client.getOutputStream().write(answer);
                client.getOutputStream().flush();
            }
            fromStore.transferTo(OutputStream.nullOutputStream()); // the store finished: the request is applied
        }
        client.setSoLinger(true, 0); // then RST: the client never sees the answer
    }

    private Fault faultFor(String requestLine) {
        for (Rule rule : rules) {
            if (rule.matches.test(requestLine) && rule.remaining.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0) {
                return rule.fault;
            }
        }
        return null;
    }

    private static void answer(Socket client, Fault fault) throws IOException {
        if (fault == Fault.DROP_CONNECTION) {
            client.setSoLinger(true, 0); // RST, as a crashed server or a middlebox would
            return;
        }
        String body;
        String status;
        switch (fault) {
            case SLOW_DOWN:
                status = "503 Slow Down";
                body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>SlowDown</Code>"
                        + "<Message>Please reduce your request rate.</Message></Error>";
                break;
            case UNAUTHORIZED:
                status = "401 Unauthorized";
                body = "<html><h1>Unauthorized</h1></html>";
                break;
            default:
                status = "503 Service Unavailable";
                body = "<html><h1>Service Unavailable</h1></html>";
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String response = "HTTP/1.1 " + status + "\r\nContent-Length: " + bytes.length
                + "\r\nContent-Type: " + (fault == Fault.SLOW_DOWN ? "application/xml" : "text/html")
                + "\r\nConnection: close\r\n\r\n";
        OutputStream out = client.getOutputStream();
        out.write(response.getBytes(StandardCharsets.ISO_8859_1));
        out.write(bytes);
        out.flush();
    }

    private static String withConnectionClose(String head) {
        StringBuilder rebuilt = new StringBuilder();
        for (String line : head.split("\r\n")) {
            String lower = line.toLowerCase(Locale.ROOT);
            if (!lower.startsWith("connection:") && !lower.startsWith("keep-alive:") && !line.isEmpty()) {
                rebuilt.append(line).append("\r\n");
            }
        }
        return rebuilt.append("Connection: close\r\n\r\n").toString();
    }

    private static void pump(InputStream from, OutputStream to) {
        try {
            from.transferTo(to);
        } catch (IOException e) {
            // Either side closed: the response pump ends the exchange.
        }
    }

    private static byte[] readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3))
                    ? matched + 1 : (b == '\r' ? 1 : 0);
            if (matched == 4) {
                return head.toByteArray();
            }
            if (head.size() > 64 * 1024) {
                throw new IOException("request head too large");
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        server.close();
        pool.shutdownNow();
    }

    /** Where clients should connect instead of the store. */
    public InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port());
    }
}
