import t from 'tap';
import { found } from '../../testing/pii.js';
import { databaseUrlRule } from './database-url.js';

const urls = (text: string) => found(text, 'DATABASE_URL');

t.test('URLs with credentials of database, cache and queue schemes', async (t) => {
  for (const url of [
    'postgresql://app:s3cret@db.example.com:5432/app',
    'postgres://user:password@localhost/mydb?sslmode=require',
    'mysql://root:P@ss!@10.0.0.5:3306/shop',
    'mongodb+srv://svc:Zx9q@cluster0.ab1cd.mongodb.net/prod?retryWrites=true',
    'redis://:s3cret@cache:6379/0',
    'amqp://guest:guest@rabbit:5672/',
    'postgresql+psycopg2://app:s3cret@db/app',
    'jdbc:mysql://db:3306/app?user=app&password=s3cret',
    'jdbc:sqlserver://db:1433;databaseName=app;user=sa;password=Str0ng!',
    // The scheme is matched by its letters in any case, with a driver after "+", and at the shortest length.
    'POSTGRESQL+Psycopg2://app:s3cret@db/app',
    'Neo4j+S://neo4j:s3cret@graph:7687',
    'ydb://svc:s3cret@ydb.example:2135/db',
  ]) {
    t.same(urls(`DATABASE_URL=${url}\n`), [url], url);
  }
  t.same(urls('connect to postgres://app:s3cret@db/app.'), ['postgres://app:s3cret@db/app'], 'sentence full stop');
  t.same(urls('("postgres://app:s3cret@db/app")'), ['postgres://app:s3cret@db/app']);
  t.same(urls('Server=tcp:db.example.com,1433;Database=app;User Id=sa;Password=Str0ngP@ss;'), ['Server=tcp:db.example.com,1433;Database=app;User Id=sa;Password=Str0ngP@ss;'], 'ADO.NET');
  t.same(urls('Use Data Source=db01;Initial Catalog=app;User ID=sa;Password=x1y2z3 to connect'), ['Data Source=db01;Initial Catalog=app;User ID=sa;Password=x1y2z3']);
});

t.test('no credentials, templates and other schemes are not leaks', async (t) => {
  for (const text of [
    'postgres://localhost:5432/app',
    'mongodb://db.example.com:27017/app',
    'redis://cache:6379/0',
    'postgres://app@db/app',
    'postgresql://app:${DB_PASSWORD}@db:5432/app',
    'postgresql://app:{{ db_password }}@db:5432/app',
    'mysql://root:<password>@localhost/app',
    'postgres://app:%s@db/app',
    'postgres://app:***@db/app',
    'https://admin:secret@example.com/login',
    'Password=secret without a server',
    'DB_PASSWORD=s3cret',
  ]) {
    t.same(urls(text), [], text);
  }
});

t.test('mask: credentials hidden, the rest kept (the spec)', async (t) => {
  t.equal(databaseUrlRule.mask('postgresql://app:s3cret@db.example.com:5432/app'), 'postgresql://***:***@db.example.com:5432/app');
  t.equal(databaseUrlRule.mask('redis://:s3cret@cache:6379/0'), 'redis://:***@cache:6379/0');
  t.equal(databaseUrlRule.mask('mysql://root:P@ss!@10.0.0.5:3306/shop'), 'mysql://***:***@10.0.0.5:3306/shop');
  t.equal(databaseUrlRule.mask('jdbc:mysql://db:3306/app?user=app&password=s3cret'), 'jdbc:mysql://db:3306/app?user=***&password=***');
  t.equal(databaseUrlRule.mask('Server=db;Database=app;User Id=sa;Password=Str0ng;'), 'Server=db;Database=app;User Id=***;Password=***;');
});
