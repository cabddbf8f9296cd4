export default function Home() {
  return <div>Home</div>;
}
