// Additions to @jupyter/builder's rspack configuration for the labextension
// (package.json jupyterlab.webpackConfig), merged into it.
const path = require('path');
const {
  CopyRspackPlugin,
  LightningCssMinimizerRspackPlugin,
  SwcJsMinimizerRspackPlugin
} = require('@rspack/core');

// The local WebMCP relay's page script and the hidden frame it loads from
// next to itself, served from the extension's static folder (static/relay/)
// instead of a CDN: src/relay/embed.ts loads them when the owner turns the
// relay on. Its package exports neither file, so they are copied, with its
// license.
const relayPackage = path.dirname(require.resolve('@mcp-b/webmcp-local-relay'));

// BUNDLE_STATS=<file>: also write the build's module and chunk statistics
// there, to see which module is in which chunk and what imports it (each
// module's `reasons`): `BUNDLE_STATS=/tmp/stats.json npm run build:prod`.
class WriteStats {
  constructor(file) {
    this.file = file;
  }
  apply(compiler) {
    compiler.hooks.done.tap('WriteStats', stats => {
      require('fs').writeFileSync(
        this.file,
        JSON.stringify(
          stats.toJson({
            all: false,
            chunks: true,
            chunkModules: true,
            modules: true,
            nestedModules: true,
            reasons: true,
            ids: true,
            modulesSpace: Infinity,
            nestedModulesSpace: Infinity,
            chunkModulesSpace: Infinity,
            orphanModules: true
          })
        )
      );
    });
  }
}

module.exports = {
  plugins: [
    ...(process.env.BUNDLE_STATS
      ? [new WriteStats(path.resolve(process.env.BUNDLE_STATS))]
      : []),
    new CopyRspackPlugin({
      patterns: [
        {
          from: path.join(relayPackage, 'browser', 'embed.js'),
          to: 'relay/embed.js'
        },
        {
          from: path.join(relayPackage, 'browser', 'widget.html'),
          to: 'relay/widget.html'
        },
        {
          from: path.join(relayPackage, '..', 'LICENSE'),
          to: 'relay/LICENSE',
          toType: 'file'
        }
      ]
    })
  ],
  module: {
    rules: [
      {
        // The style sheets (style/*.raw.css, loaded as strings by the
        // builder's rule) go through lightningcss first: comments and
        // whitespace out, nothing that changes what the rules do.
        test: /\.css$/,
        use: [
          {
            loader: 'builtin:lightningcss-loader',
            options: { minify: true }
          }
        ]
      }
    ]
  },
  optimization: {
    // rspack's own minimizers, with three compress passes instead of one:
    // the same transforms, run until they find no more (0.2 KB less in
    // all, 2026-12-05; docs/benchmarks.md, "A small start")
    minimizer: [
      new SwcJsMinimizerRspackPlugin({
        minimizerOptions: { compress: { passes: 3 } }
      }),
      new LightningCssMinimizerRspackPlugin()
    ],
    splitChunks: {
      cacheGroups: {
        // The third-party code bundled with the extension (the packages
        // jupyterlab.sharedPackages marks unshared) in a chunk per package.
        // Concatenated into the extension's chunk, or with each other, it
        // would be a little smaller, but the builder's license plugin sees
        // only the first module of a concatenation, so the other packages'
        // licenses would be missing from third-party-licenses.json (as
        // ansi-regex, inside strip-ansi, was).
        thirdParty: {
          test: /[\\/]node_modules[\\/]/,
          chunks: 'async',
          minSize: 0,
          enforce: true,
          name: module => {
            const found =
              /[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(
                module.resource || ''
              );
            return `vendor-${found ? found[1].replace(/[\\/@]/g, '_') : 'other'}`;
          }
        }
      }
    }
  }
};
