// A test host for the MCP Apps views (issue 32), built with the SDK's AppBridge: it loads a
// view's HTML in a sandboxed iframe (scripts only, an opaque origin) under the CSP the view
// declared, sends it the tool's input and result, and hands each tool call the view makes
// to window.hostCallTool, which the Playwright test answers from the running server.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

type CallToolParams = { name: string; arguments?: Record<string, unknown> };

declare global {
  interface Window {
    hostCallTool(params: CallToolParams): Promise<Record<string, unknown>>;
    startView(options: {
      html: string;
      imageOrigins: string[];
      input: Record<string, unknown>;
      result: Record<string, unknown>;
      theme: 'light' | 'dark';
    }): Promise<void>;
  }
}

window.startView = async ({ html, imageOrigins, input, result, theme }) => {
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.title = 'Buddy Match view';
  iframe.style.cssText = 'width:100%;height:400px;border:0';
  document.body.replaceChildren(iframe);
  const csp = `default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src ${imageOrigins.join(' ')}`;
  const page = html.replace('<head>', `<head><meta http-equiv="Content-Security-Policy" content="${csp}">`);
  const bridge = new AppBridge(
    null,
    { name: 'buddy-match-test-host', version: '1.0.0' },
    { serverTools: {} },
    { hostContext: { theme, displayMode: 'inline' } },
  );
  bridge.oncalltool = async (params) => (await window.hostCallTool(params)) as never;
  bridge.onsizechange = ({ height }) => {
    if (height) iframe.style.height = `${height}px`;
  };
  const ready = new Promise<void>((resolve) => {
    bridge.oninitialized = () => {
      void bridge.sendToolInput({ arguments: input });
      void bridge.sendToolResult(result as never);
      resolve();
    };
  });
  const view = iframe.contentWindow as Window;
  await bridge.connect(new PostMessageTransport(view, view));
  iframe.srcdoc = page;
  await ready;
};
